/** Limits of skills and agent profiles; every option that has a default takes it from here. */
export const SKILLS_DEFAULTS = {
  /** Longest `AGENT.md`, in characters (about 5 000 tokens). A `SKILL.md` has no limit: it is read in parts. */
  maxFileChars: 20_000,
  /**
   * Most characters of one part of a long `SKILL.md` or file the SKILL tool gives at once (whole
   * lines; within core's 12 000-character tool-output budget with room for the file list).
   */
  partChars: 9_000,
  /** Largest file the SKILL tool reads as text, in bytes; a larger one is named, not read. */
  maxReadableBytes: 4 * 1024 * 1024,
  /** Longest description the format allows. */
  maxDescriptionChars: 1024,
  /** A description up to this long is listed whole; a longer one by its first sentence. */
  listedDescriptionChars: 160,
  /**
   * Characters the whole skill list may take in the prompt. When every skill's first sentence
   * fits, all are listed with it; otherwise the prompt lists every name, and the skills most
   * relevant to the question (with their first sentence) go in the answer's volatile context.
   */
  skillListChars: 2_000,
  /** Skills named in the volatile context when the list does not fit. */
  rankedSkills: 5,
  /** Files of a skill's folder named when its instructions are loaded; a cut list says so. */
  listedFiles: 40,
  /** Levels of agents: the one asked, and one it hands a task to. */
  maxHandoffDepth: 2,
  /** How long a routing table of model roles is kept before it is read again, in milliseconds. */
  routesTtlMs: 60_000,
  /** Time limit of one handoff (a whole answer of another agent), in milliseconds. */
  handoffTimeoutMs: 600_000,
} as const;

/** A skill's or agent's name: lowercase letters, digits and single hyphens, 1 to 64 characters. */
export const NAME_PATTERN = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;
