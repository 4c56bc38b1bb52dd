import type { RestResult } from './fake-discord-rest.js';
import type { FakeDiscordActionRow, FakeDiscordButton, FakeDiscordMessage } from './fake-discord-types.js';

const MAX_ROWS = 5;
const MAX_BUTTONS_PER_ROW = 5;
const MAX_CUSTOM_ID = 100;
const MAX_LABEL = 80;
/** Button styles: primary, secondary, success, danger, link, premium. */
const LINK_STYLE = 5;

function invalid(path: string, message: string): RestResult {
  return {
    status: 400,
    body: {
      message: 'Invalid Form Body',
      code: 50035,
      errors: { [path]: { _errors: [{ code: 'COMPONENT_INVALID', message }] } },
    },
  };
}

function readButton(
  raw: Record<string, unknown>,
  path: string,
  ids: Set<string>,
): FakeDiscordButton | RestResult {
  const style = raw.style;
  if (typeof style !== 'number' || !Number.isInteger(style) || style < 1 || style > 6)
    return invalid(`${path}.style`, 'Value must be one of (1, 2, 3, 4, 5, 6).');
  const label = raw.label;
  if (label !== undefined && (typeof label !== 'string' || label.length > MAX_LABEL))
    return invalid(`${path}.label`, `Must be ${MAX_LABEL} or fewer in length.`);
  const customId = raw.custom_id;
  const url = raw.url;
  if (style === LINK_STYLE) {
    if (typeof url !== 'string' || customId !== undefined)
      return invalid(path, 'A link button needs a url and no custom_id.');
  } else {
    if (typeof customId !== 'string' || customId.length < 1 || customId.length > MAX_CUSTOM_ID)
      return invalid(`${path}.custom_id`, `Must be between 1 and ${MAX_CUSTOM_ID} in length.`);
    if (ids.has(customId)) return invalid(`${path}.custom_id`, 'Component custom id cannot be duplicated');
    ids.add(customId);
  }
  return {
    type: 2,
    style,
    ...(typeof label === 'string' ? { label } : {}),
    ...(typeof customId === 'string' ? { custom_id: customId } : {}),
    ...(typeof url === 'string' ? { url } : {}),
    ...(raw.disabled === true ? { disabled: true } : {}),
  };
}

/**
 * Reads a message's `components` as Discord checks them: at most 5 action rows (type 1), each
 * with 1 to 5 buttons (type 2); a button has a style, a label of at most 80 characters, and a
 * `custom_id` (1 to 100 characters, unique in the message) unless it is a link (style 5, `url`).
 * Other component types are refused. Resolves with a 400 (50035) for a bad value.
 */
export function readComponents(raw: unknown): FakeDiscordActionRow[] | RestResult {
  if (!Array.isArray(raw)) return invalid('components', 'Must be an array.');
  if (raw.length > MAX_ROWS) return invalid('components', `Must be ${MAX_ROWS} or fewer in length.`);
  const ids = new Set<string>();
  const rows: FakeDiscordActionRow[] = [];
  for (const [index, row] of (raw as Array<Record<string, unknown>>).entries()) {
    const path = `components.${index}`;
    if (row?.type !== 1 || !Array.isArray(row.components))
      return invalid(`${path}.type`, 'A top-level component must be an action row (type 1).');
    const children = row.components as Array<Record<string, unknown>>;
    if (children.length < 1 || children.length > MAX_BUTTONS_PER_ROW)
      return invalid(`${path}.components`, `Must be between 1 and ${MAX_BUTTONS_PER_ROW} in length.`);
    const buttons: FakeDiscordButton[] = [];
    for (const [position, child] of children.entries()) {
      if (child?.type !== 2)
        return invalid(
          `${path}.components.${position}.type`,
          'The fake Discord knows buttons (type 2) only.',
        );
      const button = readButton(child, `${path}.components.${position}`, ids);
      if ('status' in button) return button;
      buttons.push(button);
    }
    rows.push({ type: 1, components: buttons });
  }
  return rows;
}

/** True when `value` is a refusal from {@link readComponents}, not components. */
export function isRefusal(value: FakeDiscordActionRow[] | RestResult): value is RestResult {
  return !Array.isArray(value);
}

/** The message's enabled button with this `custom_id`, if a user could click it now. */
export function clickableButton(
  message: FakeDiscordMessage,
  customId: string,
): FakeDiscordButton | undefined {
  for (const row of message.components ?? [])
    for (const button of row.components)
      if (button.custom_id === customId && button.disabled !== true) return button;
  return undefined;
}

/** Components as the wire carries them: each with the numeric `id` Discord assigns in order. */
export function componentsPayload(rows: readonly FakeDiscordActionRow[] = []): unknown[] {
  let id = 0;
  return rows.map((row) => ({
    type: 1,
    id: ++id,
    components: row.components.map((button) => ({ ...button, id: ++id })),
  }));
}
