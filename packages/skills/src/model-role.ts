/** What a model is good for; an agent profile may name one instead of a model. */
export type ModelRole = 'fast' | 'general' | 'tools' | 'vision' | 'thinking' | 'code';

/** Every role, in the order tables list them. */
export const MODEL_ROLES: readonly ModelRole[] = ['fast', 'general', 'tools', 'vision', 'thinking', 'code'];

/** True when `value` names a role rather than a model. */
export function isModelRole(value: string): value is ModelRole {
  return (MODEL_ROLES as readonly string[]).includes(value);
}
