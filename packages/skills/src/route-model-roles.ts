import type { ModelCapabilities } from '@macstats/core';
import { MODEL_ROLES, type ModelRole } from './model-role.js';

/** An installed model as routing sees it: its name and what the server says it can do. */
export interface RoutableModel {
  name: string;
  /** From the server (Ollama's `/api/show`); null when it could not be read. */
  capabilities: Pick<ModelCapabilities, 'tools' | 'vision' | 'thinking'> | null;
}

/** The grades of one model from the last `macstats eval` (its report's `models[]`). */
export interface EvalGrade {
  model: string;
  /** 0 to 1; higher is better. */
  score: number;
  /** Share of scenarios whose tool calls were right (0 to 1). */
  toolCallSuccess?: number | undefined;
  /** Generation speed; null when the server reported none. */
  tokensPerSecond?: number | null | undefined;
  medianLatencyMs?: number | undefined;
}

/** Where one role goes: a model and why, or a sentence naming what to pull. */
export interface RoleRoute {
  role: ModelRole;
  model: string | null;
  /** Why this model: `eval score 0.93`, `reads images`, … */
  reason: string;
  /** Set when no installed model fills the role: one sentence naming what to pull. */
  problem?: string;
}

/** A model to pull for each role, named when none installed fills it. */
export const ROLE_SUGGESTIONS: Readonly<Record<ModelRole, { what: string; pull: string }>> = {
  fast: { what: 'a small model', pull: 'llama3.2:3b' },
  general: { what: 'a chat model', pull: 'qwen3:8b' },
  tools: { what: 'a model with native tool calling', pull: 'qwen3:4b' },
  vision: { what: 'a model that reads images', pull: 'qwen2.5vl:7b' },
  thinking: { what: 'a model that reasons before it answers', pull: 'qwen3:8b' },
  code: { what: 'a code model', pull: 'qwen2.5-coder:7b' },
};

/** Billions of parameters written in a model's tag (`qwen3:4b`, `llama3.2:1.5b`, `phi3:3.8b-mini`); null when none. */
export function parameterBillions(name: string): number | null {
  const match = /[:\-_](\d+(?:\.\d+)?)b(?![a-z])/i.exec(name);
  return match ? Number(match[1]) : null;
}

const isCodeModel = (name: string) =>
  /(coder|codestral|codellama|starcoder|devstral|codegemma|(^|[-_/])code)/i.test(name);

/** The routing table: each role's model, ranked by the last eval when it graded one, else by capability. */
export function routeModelRoles(input: {
  models: readonly RoutableModel[];
  /** The last eval's grades; none (or none of these models): capability and size decide. */
  eval?: readonly EvalGrade[] | undefined;
}): RoleRoute[] {
  const grades = new Map((input.eval ?? []).map((grade) => [grade.model, grade]));
  const size = (model: RoutableModel) => parameterBillions(model.name);
  const bySizeDesc = (a: RoutableModel, b: RoutableModel) =>
    (size(b) ?? 0) - (size(a) ?? 0) || a.name.localeCompare(b.name);
  const has = (flag: 'tools' | 'vision' | 'thinking') => (model: RoutableModel) =>
    model.capabilities?.[flag] === true;

  /** The best of `candidates`: the eval's pick among those it graded, else `fallback`'s first. */
  function pick(
    role: ModelRole,
    candidates: RoutableModel[],
    graded: (a: EvalGrade, b: EvalGrade) => number,
    gradedReason: (grade: EvalGrade) => string,
    fallback: (a: RoutableModel, b: RoutableModel) => number,
    fallbackReason: string,
  ): RoleRoute {
    const withGrades = candidates
      .map((model) => grades.get(model.name))
      .filter((grade): grade is EvalGrade => grade !== undefined)
      .sort(graded);
    const best = withGrades[0];
    if (best) return { role, model: best.model, reason: gradedReason(best) };
    const first = [...candidates].sort(fallback)[0];
    if (first) return { role, model: first.name, reason: fallbackReason };
    const { what, pull } = ROLE_SUGGESTIONS[role];
    return {
      role,
      model: null,
      reason: 'no installed model fills it',
      problem: `No installed model fills the ${role} role: pull ${what}, such as \`ollama pull ${pull}\`.`,
    };
  }

  const all = [...input.models];
  const byScore = (a: EvalGrade, b: EvalGrade) => b.score - a.score || a.model.localeCompare(b.model);
  const scoreReason = (grade: EvalGrade) => `eval score ${grade.score.toFixed(2)}`;
  const routes: Record<ModelRole, () => RoleRoute> = {
    general: () => pick('general', all, byScore, scoreReason, bySizeDesc, 'the largest installed'),
    tools: () =>
      pick(
        'tools',
        all.filter((model) => has('tools')(model) || grades.has(model.name)),
        (a, b) => (b.toolCallSuccess ?? b.score) - (a.toolCallSuccess ?? a.score) || byScore(a, b),
        (grade) =>
          `eval: tool calls ${Math.round((grade.toolCallSuccess ?? grade.score) * 100)}%, score ${grade.score.toFixed(2)}`,
        bySizeDesc,
        'native tool calling; the largest such',
      ),
    fast: () =>
      pick(
        'fast',
        all,
        (a, b) =>
          (b.tokensPerSecond ?? 0) - (a.tokensPerSecond ?? 0) ||
          (a.medianLatencyMs ?? 0) - (b.medianLatencyMs ?? 0),
        (grade) =>
          grade.tokensPerSecond
            ? `eval: ${grade.tokensPerSecond.toFixed(1)} tokens/s`
            : `eval: ${typeof grade.medianLatencyMs === 'number' ? Math.round(grade.medianLatencyMs) : '?'} ms`,
        (a, b) =>
          (size(a) ?? Number.POSITIVE_INFINITY) - (size(b) ?? Number.POSITIVE_INFINITY) ||
          a.name.localeCompare(b.name),
        'the smallest installed',
      ),
    vision: () =>
      pick(
        'vision',
        all.filter(has('vision')),
        byScore,
        (g) => `reads images; ${scoreReason(g)}`,
        bySizeDesc,
        'reads images',
      ),
    thinking: () =>
      pick(
        'thinking',
        all.filter(has('thinking')),
        byScore,
        (g) => `reasons; ${scoreReason(g)}`,
        bySizeDesc,
        'reasons before it answers',
      ),
    code: () =>
      pick(
        'code',
        all.filter((model) => isCodeModel(model.name)),
        byScore,
        (g) => `a code model; ${scoreReason(g)}`,
        bySizeDesc,
        'a code model',
      ),
  };
  return MODEL_ROLES.map((role) => routes[role]());
}
