/** Limits of skills and agent profiles; every option that has a default takes it from here. */
export const SKILLS_DEFAULTS = {
  /** Longest `SKILL.md` or `AGENT.md`, in characters (about 5 000 tokens, the format's advice). */
  maxFileChars: 20_000,
  /** Longest file of a skill's folder `SKILL: <name> <file>` reads, in characters. */
  maxResourceChars: 20_000,
  /** Longest description the format allows. */
  maxDescriptionChars: 1024,
  /** Most characters of one description the prompt's skill list shows; the rest is cut with `…`. */
  listedDescriptionChars: 160,
  /**
   * Characters the whole skill list may take in the prompt (about 350 tokens): with many skills
   * each description gets its share, so twenty skills and every tool fit in 2 500 tokens.
   */
  skillListChars: 1200,
  /** Fewest characters of a description shown, however many skills there are. */
  minDescriptionChars: 40,
  /** Files of a skill's folder named when its instructions are loaded. */
  listedFiles: 20,
  /** Levels of agents: the one asked, and one it hands a task to. */
  maxHandoffDepth: 2,
  /** How long a routing table of model roles is kept before it is read again, in milliseconds. */
  routesTtlMs: 60_000,
  /** Time limit of one handoff (a whole answer of another agent), in milliseconds. */
  handoffTimeoutMs: 600_000,
} as const;

/** A skill's or agent's name: lowercase letters, digits and single hyphens, 1 to 64 characters. */
export const NAME_PATTERN = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;
