/** What a service unit needs to run `macstats start`. */
export interface ServiceUnitOptions {
  /** The node binary, absolute. */
  node: string;
  /** This CLI's `dist/cli.js`, absolute. */
  cli: string;
  /** MACSTATS_HOME, absolute. */
  home: string;
  /** The user's home directory: systemd writes paths under it as `%h/…`. */
  userHome: string;
}

/** The systemd user unit's name, and launchd's label. */
export const SYSTEMD_UNIT_NAME = 'macstats.service';
export const LAUNCHD_LABEL = 'com.macstats.bot';

/** A path under the user's home as `%h/…` (systemd expands it in user units), `%` doubled. */
function systemdPath(path: string, userHome: string): string {
  const under = userHome.replace(/\/+$/, '');
  const doubled = (text: string) => text.replaceAll('%', '%%');
  if (path === under) return '%h';
  return path.startsWith(`${under}/`) ? `%h${doubled(path.slice(under.length))}` : doubled(path);
}

/** A value quoted when it holds a space or a quote (systemd's quoting). */
function systemdQuoted(value: string): string {
  return /[\s"'\\]/.test(value) ? `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"` : value;
}

/**
 * The systemd user unit of docs/deploy/macstats.service with this machine's paths: restart on
 * any exit but 3, SIGTERM to the bot alone, 45 s to stop.
 */
export function renderSystemdUnit(options: ServiceUnitOptions): string {
  const home = systemdPath(options.home, options.userHome);
  const word = (path: string) => systemdQuoted(path.replaceAll('%', '%%'));
  return `# systemd user unit for the macstats bot (Discord + scheduler), written by
# \`macstats service install\` (docs/bot.md, "Keeping it running").
#
# Watch it:   systemctl --user status macstats ; journalctl --user -u macstats -f
# Stop it:    systemctl --user stop macstats   (SIGTERM: answers in flight finish first)

[Unit]
Description=macstats: Discord bot and scheduler on a local Ollama
Documentation=https://www.npmjs.com/package/@macstats/cli
# Give up restarting only after 10 failed starts in 5 minutes.
StartLimitIntervalSec=300
StartLimitBurst=10

[Service]
Type=simple
Environment=${systemdQuoted(`MACSTATS_HOME=${home}`)}
WorkingDirectory=${systemdQuoted(home)}
ExecStart=${word(options.node)} ${word(options.cli)} start
# Keep it running: restart after a crash, a failed start (Discord or the network not up yet
# at boot) or anything else...
Restart=always
RestartSec=10
# ...except exit 3: Discord refused the token or the Message Content intent. Restarting cannot
# fix that; \`macstats doctor\` says what to change, then \`systemctl --user restart macstats\`.
RestartPreventExitStatus=3
# SIGTERM goes to the bot alone, which ends its MCP servers itself after the answers in flight
# (default grace 20 s, \`start --shutdown-grace\`); anything left is killed after TimeoutStopSec.
KillMode=mixed
KillSignal=SIGTERM
TimeoutStopSec=45
# Standard output (JSON log lines) goes to the journal; the rotating file log is under
# $MACSTATS_HOME/logs.
NoNewPrivileges=true

[Install]
WantedBy=default.target
`;
}

const xml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The launchd agent of docs/deploy/com.macstats.bot.plist with this machine's paths: started at
 * login, restarted whenever it exits (at most every 10 s), 45 s to stop.
 */
export function renderLaunchdPlist(options: ServiceUnitOptions): string {
  const nodeDir = options.node.slice(0, options.node.lastIndexOf('/')) || '/';
  const path = [...new Set([nodeDir, '/opt/homebrew/bin', '/usr/local/bin', '/usr/bin', '/bin'])].join(':');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!--
  launchd agent for the macstats bot (Discord + scheduler), written by
  \`macstats service install\` (docs/bot.md, "Keeping it running").

  Status:   launchctl print gui/$(id -u)/${LAUNCHD_LABEL} | head -20
  Restart:  launchctl kickstart -k gui/$(id -u)/${LAUNCHD_LABEL}
  Remove:   macstats service uninstall
-->
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>

  <key>ProgramArguments</key>
  <array>
    <string>${xml(options.node)}</string>
    <string>${xml(options.cli)}</string>
    <string>start</string>
  </array>

  <key>EnvironmentVariables</key>
  <dict>
    <key>MACSTATS_HOME</key>
    <string>${xml(options.home)}</string>
    <key>PATH</key>
    <string>${xml(path)}</string>
  </dict>
  <key>WorkingDirectory</key>
  <string>${xml(options.home)}</string>

  <!-- Keep it running: start at login, restart whenever it exits, at most every 10 s. -->
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <true/>
  <key>ThrottleInterval</key>
  <integer>10</integer>

  <!-- On stop, launchd sends SIGTERM and waits this long before SIGKILL: the bot lets
       answers in flight finish (20 s by default) and ends its MCP servers. -->
  <key>ExitTimeOut</key>
  <integer>45</integer>

  <key>ProcessType</key>
  <string>Background</string>

  <!-- Standard output repeats the rotating log in ~/.mac-stats/logs, so it is dropped here;
       standard error keeps what Node prints if it cannot start at all. -->
  <key>StandardOutPath</key>
  <string>/dev/null</string>
  <key>StandardErrorPath</key>
  <string>${xml(options.home)}/logs/launchd-stderr.log</string>
</dict>
</plist>
`;
}
