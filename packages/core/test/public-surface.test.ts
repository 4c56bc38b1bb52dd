import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';
import * as internal from '../src/internal.js';
import * as parser from '../src/parser/index.js';

// The names ../shared/API.md (the public contract) lists for `@macstats/core`, each of which
// must stay importable from `.` (a change to one needs a re-export).
const CONTRACT_TYPES = [
  'Agent',
  'AgentAnswer',
  'AgentEvent',
  'AgentOptions',
  'AgentStep',
  'AnswerOptions',
  'ApprovalRequest',
  'ApproveFunction',
  'CallLabels',
  'ChatModel',
  'JsonSchema',
  'Tool',
  'ToolCall',
  'ToolContext',
  'ToolResult',
  'ToolSyntax',
] as const;
const CONTRACT_VALUES = [
  'createAgent',
  'createDeadline',
  'createModelPool',
  'createOllamaModel',
  'createOllamaPoolMember',
  'createTokenDeadline',
  'parseToolCall',
  'parseToolCalls',
] as const;

// Everything `.` exports beyond the contract, on purpose. Adding a name to `src/index.ts` means
// adding it here (and to the README); a helper belongs on `./internal` instead.
const DOCUMENTED_VALUES = [
  ...CONTRACT_VALUES,
  'AGENT_DEFAULTS',
  'APPROVAL_RULE_DEFAULTS',
  'APPROVAL_RULES_FILE',
  'CONVERSATION_APPROVALS_FILE',
  'PENDING_APPROVALS_DIR',
  'createSharedPendingApprovals',
  'ARCHIVE_FOLDER',
  'createApprovalMemory',
  'createApprovalRuleStore',
  'createPendingApprovals',
  'describeRule',
  'rememberApprovals',
  'ruleCovers',
  'ContextLabels',
  'namedOriginsIn',
  'RANKING_DEFAULTS',
  'RECALL_DEFAULTS',
  'createEmbedder',
  'createMessageArchive',
  'createRecall',
  'formatRecalled',
  'formatRecalledMessage',
  'isArchivedMessage',
  'searchArchive',
  'DEFAULT_OLLAMA_HOST',
  'DEFAULT_SYSTEM_PROMPT',
  'LINK_CHOICE_BITS_PER_DAY',
  'MODEL_POOL_DEFAULTS',
  'MacstatsError',
  'errorFactory',
  'TOKEN_BUDGET_SPENT',
  'UNDECLARED_LABELS',
  'checkOllama',
  'createDailyTokenBudget',
  'createFileTokenLedger',
  'createLinkAllowance',
  'createMemoryStore',
  'defineTool',
  'isConversationRecord',
  'isDependencyMissing',
  'isEmbeddingModel',
  'labelsOf',
  'linkChoiceBits',
  'modelNotInstalled',
  'neutraliseControlTokens',
  'pickModel',
  'sameModel',
  'silentLogger',
  'toToolResult',
  'wrapUntrusted',
];
const DOCUMENTED_TYPES = [
  'AnswerResult',
  'ApprovalAnswer',
  'ApprovalMemory',
  'ApprovalOutcome',
  'ApprovalRule',
  'ApprovalRuleStore',
  'ApprovalScope',
  'AskApprovalFunction',
  'PendingApproval',
  'PendingApprovalEvent',
  'PendingApprovals',
  'SharedPendingApprovals',
  'SharedPendingApprovalsOptions',
  'ApprovalRuleStoreOptions',
  'RememberApprovalsOptions',
  ...CONTRACT_TYPES,
  'AgentTelemetryOptions',
  'ArchiveHit',
  'ArchivedMessage',
  'Embedder',
  'EmbedderOptions',
  'ForgetReport',
  'MemoryContext',
  'MessageArchive',
  'MessageArchiveOptions',
  'NewArchivedMessage',
  'RankingWeights',
  'Recall',
  'RecallBudget',
  'RecallOptions',
  'AgentToolCall',
  'AgentUsage',
  'ArgumentHints',
  'ChatReply',
  'ChatRequest',
  'CallToParse',
  'CheckOllamaOptions',
  'ContainmentDecision',
  'ContainmentRule',
  'ContainmentVerdict',
  'ContextLabelsInput',
  'DayOrigins',
  'LinkAllowance',
  'LinkChoiceOptions',
  'ContextLabelsSnapshot',
  'CoreErrorCode',
  'CoreOwnErrorCode',
  'ErrorFactory',
  'ConversationRecord',
  'ConversationTurn',
  'DailyTokenBudget',
  'DailyTokenBudgetOptions',
  'DefinedTool',
  'LabelledCall',
  'LlmCallPurpose',
  'Logger',
  'MemoryOptions',
  'MemoryStore',
  'MacstatsErrorFacts',
  'MemoryStoreOptions',
  'ModelCapabilities',
  'ModelDescription',
  'ModelMessage',
  'ModelPool',
  'ModelPoolOptions',
  'ModelSettingNames',
  'ModelToolCall',
  'ModelToolDefinition',
  'ModelUsage',
  'NativeFunction',
  'OllamaChatModel',
  'OllamaCheck',
  'OllamaErrorCode',
  'OllamaModelOptions',
  'ParsedCall',
  'ParseResult',
  'PoolMember',
  'PoolMemberStatus',
  'PoolMemberView',
  'RedirectCheck',
  'TokenBudgetAccount',
  'TokenBudgetEvent',
  'TokenBudgetLine',
  'TokenBudgetRefusal',
  'TokenBudgetScope',
  'TokenBudgetStatus',
  'TokenDeadline',
  'TokenDeadlineExpiry',
  'TokenDeadlineLimits',
  'TokenLedger',
  'ToolLabels',
  'ToolSkipReason',
  'ToolDefinition',
  'ToolSpecs',
];

/** The names an entry file exports, types included, read from its `export { … }` lists. */
function exportedNames(file: string): string[] {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const names: string[] = [];
  for (const match of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    for (const part of (match[2] ?? '').split(',')) {
      const name = part.trim().replace(/^type\s+/, '');
      if (name) names.push(name.split(/\s+as\s+/).at(-1) as string);
    }
  }
  if (/export\s+\*/.test(text)) throw new Error(`${file}: export * hides what the entry exports`);
  return names.sort();
}

describe("core's public surface", () => {
  it('exports every value the API contract names from `.`', () => {
    const values: Record<string, unknown> = { ...core };
    for (const name of CONTRACT_VALUES) expect(typeof values[name], name).toBe('function');
  });

  it('exports every type the API contract names from `.`', () => {
    const names = exportedNames('../src/index.ts');
    for (const name of CONTRACT_TYPES) expect(names, name).toContain(name);
  });

  it('exports nothing from `.` beyond the documented list', () => {
    expect(Object.keys(core).sort()).toEqual([...DOCUMENTED_VALUES].sort());
    expect(exportedNames('../src/index.ts')).toEqual([...DOCUMENTED_VALUES, ...DOCUMENTED_TYPES].sort());
  });

  it('still parses a tool call through the contract names on `.` and on `./parser`', () => {
    const text = 'FETCH_URL: https://example.com/a';
    const expected = { tool: 'FETCH_URL', argument: 'https://example.com/a' };
    expect(core.parseToolCall(text, ['FETCH_URL'])).toMatchObject(expected);
    expect(parser.parseToolCall(text, ['FETCH_URL'])).toMatchObject(expected);
    expect(parser.parseToolCalls(text)).toEqual([expect.objectContaining(expected)]);
    expect(parser.findToolCallCandidates(text).length).toBeGreaterThan(0);
  });

  it('keeps the shared helpers off `.` and on `./internal`', () => {
    for (const name of [
      'oneLine',
      'raceSignal',
      'looseKey',
      'withSpan',
      'formatDuration',
      'plural',
      'maskUrl',
    ])
      expect({ onDot: name in core, onInternal: name in internal }, name).toEqual({
        onDot: false,
        onInternal: true,
      });
  });

  it('maps each subpath of the exports map to its own entry, types first', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(manifest.exports).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './parser': { types: './dist/parser.d.ts', default: './dist/parser.js' },
      './internal': { types: './dist/internal.d.ts', default: './dist/internal.js' },
      './package.json': './package.json',
    });
    for (const entry of Object.values(manifest.exports) as Array<Record<string, string>>) {
      if (typeof entry === 'object') expect(Object.keys(entry)).toEqual(['types', 'default']);
    }
  });
});
