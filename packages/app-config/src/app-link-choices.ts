import { join } from 'node:path';
import { createFileTokenLedger, type LinkChoiceOptions } from '@macstats/core';

/** The file under `MACSTATS_HOME` the day's link-choice bits are counted in (each host its own). */
export const LINK_CHOICES_FILE_NAME = 'link-choices.json';

/**
 * The apps' link-choice allowance (see core's `AgentOptions.linkChoices`): the bits spent
 * choosing among outside links while private data is in the context, counted per scope and over
 * all per UTC day in {@link LINK_CHOICES_FILE_NAME}, so restarts and many answers add up.
 *
 * @example
 * const agent = createAgent({ model, tools, linkChoices: appLinkChoices(home) });
 */
export function appLinkChoices(home: string): LinkChoiceOptions {
  return { ledger: createFileTokenLedger(join(home, LINK_CHOICES_FILE_NAME)) };
}
