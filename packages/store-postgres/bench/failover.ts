// Failover time against the lease: two scheduler processes share one PostgreSQL; the leader is
// SIGKILLed (or SIGSTOPped) and the time until the other host announces itself leader is
// measured. Run: pnpm --filter @macstats/store-postgres bench [rounds]

import { startTestPostgres } from '@macstats/testing';
import { HostProcesses } from '../test/host-processes.js';

const rounds = Number(process.argv[2] ?? 3);
const leases = [600, 1200, 2400, 4800];
const server = await startTestPostgres();
const rows: string[] = [];
try {
  for (const leaseMs of leases) {
    for (const signal of ['SIGKILL', 'SIGSTOP'] as const) {
      const times: number[] = [];
      for (let round = 0; round < rounds; round += 1) {
        const url = await server.createDatabase(`bench_${leaseMs}_${signal.toLowerCase()}_${round}`);
        const hosts = await HostProcesses.create(url, leaseMs);
        hosts.spawn();
        const leader = await hosts.waitFor((line) => line.words[0] === 'leader');
        hosts.spawn();
        await hosts.waitFor((line) => line.words[0] === 'ready' && line.pid !== leader.pid);
        // Let the lease be renewed at a random point of its cycle, as in real life.
        await new Promise((resolve) => setTimeout(resolve, leaseMs * Math.random()));
        const from = hosts.lines.length;
        const faultAt = performance.now();
        if (signal === 'SIGKILL') await hosts.kill(leader.pid);
        else hosts.children.get(leader.pid)?.kill('SIGSTOP');
        const next = await hosts.waitFor(
          (line) => line.words[0] === 'leader' && line.pid !== leader.pid,
          from,
        );
        times.push(next.at - faultAt);
        await hosts.stopAll();
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)] ?? Number.NaN;
      rows.push(
        `${String(leaseMs).padStart(6)} ms  ${signal.padEnd(8)}  median ${median.toFixed(0).padStart(5)} ms  ` +
          `max ${(times.at(-1) ?? Number.NaN).toFixed(0).padStart(5)} ms  median/lease ${(median / leaseMs).toFixed(2)}`,
      );
      process.stdout.write(`${rows.at(-1)}\n`);
    }
  }
} finally {
  await server.close();
}
