import type { Logger } from '@macstats/core';
import type { McpEvent } from './events.js';
import { errorText } from './open-client.js';
import { checkPins, type McpPins } from './pins.js';
import { schemaMismatch } from './tool-arguments.js';
import type { McpToolInfo } from './tool-info.js';

/**
 * One server's tool list as the pins let it be offered: every tool the last `tools/list` gave,
 * the ones offered, and the ones withheld because their definition changed since it was pinned.
 * Without pins every listed tool is offered.
 */
export class PinnedToolList {
  /** The offered tools; undefined before the first list. */
  offered: McpToolInfo[] | undefined;
  /** Every tool of the last list, those withheld included. */
  listed: McpToolInfo[] = [];
  /** Tools not offered because their definition changed since it was pinned, or they are new. */
  withheld: string[] = [];

  constructor(
    private readonly server: string,
    private readonly pins: McpPins | undefined,
    private readonly logger: Logger,
    private readonly emit: (event: McpEvent) => void,
  ) {}

  /** Takes a fresh `tools/list`: pins it at first use, else offers what matches the pins. */
  async accept(listed: McpToolInfo[]): Promise<void> {
    this.listed = listed;
    if (!this.pins) {
      this.offered = listed;
      return;
    }
    const pinned = this.pins.get(this.server);
    if (pinned !== undefined) {
      this.apply(pinned);
      return;
    }
    // First use: what the server offers now is what the user accepted by configuring it.
    this.offered = listed;
    this.withheld = [];
    await this.pins.set(this.server, listed).catch((error: unknown) => {
      this.logger.warn(
        { server: this.server, reason: errorText(error) },
        'MCP tool definitions could not be pinned',
      );
    });
    this.logger.info(
      { server: this.server, tools: listed.length },
      'MCP tool definitions pinned at first use',
    );
  }

  /** Why a call of `name` may not run as asked (withheld, or arguments that do not fit), or undefined. */
  refusal(name: string, displayName: string, args: Record<string, unknown>): string | undefined {
    const known = this.offered?.find((tool) => tool.name === name);
    if (!known && this.withheld.includes(name))
      return `MCP tool "${displayName}" changed since the user approved it and is not offered until they approve it again.`;
    return known ? schemaMismatch(displayName, known, args) : undefined;
  }

  /** Pins the last list as accepted (`macstats mcp trust`), so changed tools are offered again. */
  async trustListed(): Promise<void> {
    if (!this.pins) return;
    await this.pins.set(this.server, this.listed);
    this.apply(this.pins.get(this.server));
  }

  private apply(pinned: Readonly<Record<string, string>> | undefined): void {
    const { offered, changed } = pinned
      ? checkPins(pinned, this.listed)
      : { offered: this.listed, changed: [] };
    const news = changed.filter((name) => !this.withheld.includes(name));
    this.offered = offered;
    this.withheld = changed;
    if (news.length === 0) return;
    this.logger.warn(
      { server: this.server, tools: changed },
      `MCP tool definitions changed since they were approved; not offered until the user approves them again (macstats mcp trust ${this.server})`,
    );
    this.emit({ type: 'tools-withheld', server: this.server, tools: changed });
  }
}
