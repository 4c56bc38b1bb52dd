/** Every default of `createBrowserTool`, in one place. */
export const BROWSER_DEFAULTS = {
  /** Tokens of page text an answer shows (about 4 characters each); the rest is named, not shown. */
  snapshotTokens: 1_500,
  /** Longest time one action (a click, typing, a page load and its settling) may take: 20 s. */
  actionTimeoutMs: 20_000,
  /** How long the page is given to settle after load (its scripts adding content): at most 2 s. */
  settleTimeoutMs: 2_000,
  /** A conversation's page is closed after this long unused; the browser when no page is left: 5 min. */
  idleTimeoutMs: 5 * 60_000,
  /** Actions one conversation may take before it must start a new answer: 25. */
  maxActionsPerAnswer: 25,
  /** Tabs (the first page and its popups) one conversation may have open; more are closed at once. */
  maxTabs: 3,
  /** The window the page is laid out in, which decides what is "visible". */
  viewport: { width: 1280, height: 800 },
  /** Allow loopback, private and other non-public addresses. */
  allowPrivateNetwork: false,
} as const;

/** Chromium switches every launch uses: headless, no background traffic, no QUIC around the guard. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  // WebRTC may not open UDP around the proxy that enforces the address policy.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];
