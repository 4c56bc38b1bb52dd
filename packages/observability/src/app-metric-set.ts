// The counters, histograms and gauge of a macstats app, declared once (see docs/observability.md).
type PromClient = typeof import('prom-client');
type Registers = import('prom-client').Registry[];

/** Declares the app's metrics on `registers`; `createAppMetrics` counts into them. */
export function declareAppMetrics(client: PromClient, registers: Registers) {
  const { Counter, Gauge, Histogram } = client;
  const answers = new Counter({
    name: 'macstats_answers_total',
    help: 'Answers by outcome: ok, error (the reply says what went wrong), aborted.',
    labelNames: ['outcome'],
    registers,
  });
  const answerSeconds = new Histogram({
    name: 'macstats_answer_duration_seconds',
    help: 'Time to answer one message, tools and model requests included.',
    labelNames: ['outcome'],
    buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
    registers,
  });
  const modelRequests = new Counter({
    name: 'macstats_model_requests_total',
    help: 'Chat requests to the model by model and outcome (ok, error).',
    labelNames: ['model', 'outcome'],
    registers,
  });
  const modelSeconds = new Histogram({
    name: 'macstats_model_request_duration_seconds',
    help: 'Time of one chat request that got a reply, by model.',
    labelNames: ['model'],
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 60, 120],
    registers,
  });
  const tokens = new Counter({
    name: 'macstats_tokens_total',
    help: 'Tokens by model and type: input (prompt) or output (generated), as the server reported them.',
    labelNames: ['model', 'type'],
    registers,
  });
  const toolCalls = new Counter({
    name: 'macstats_tool_calls_total',
    help: 'Tool calls by tool and outcome: ok, failed (an error result), skipped (a guard or containment refused it).',
    labelNames: ['tool', 'outcome'],
    registers,
  });
  const toolFailures = new Counter({
    name: 'macstats_tool_failures_total',
    help: 'Failed or refused tool calls by tool and reason: error, or the guard that refused the call.',
    labelNames: ['tool', 'reason'],
    registers,
  });
  const toolSeconds = new Histogram({
    name: 'macstats_tool_duration_seconds',
    help: 'Time of one tool run, by tool (calls that were not run are not timed).',
    labelNames: ['tool'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers,
  });
  const containment = new Counter({
    name: 'macstats_containment_decisions_total',
    help: 'Calls the containment policy stopped: refused or approved, and whether the user was asked.',
    labelNames: ['decision', 'asked'],
    registers,
  });
  const runs = new Counter({
    name: 'macstats_scheduler_runs_total',
    help: 'Scheduled runs by outcome: ok, error, timeout, aborted, missed, skipped.',
    labelNames: ['outcome'],
    registers,
  });
  const lateness = new Histogram({
    name: 'macstats_scheduler_run_lateness_seconds',
    help: 'How long after its due time a scheduled run started.',
    buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 300, 900, 3600],
    registers,
  });
  const reconnects = new Counter({
    name: 'macstats_discord_reconnects_total',
    help: 'Times a Discord gateway shard reconnected.',
    registers,
  });
  const rateLimited = new Counter({
    name: 'macstats_discord_rate_limited_total',
    help: 'Discord REST requests held back by a rate limit, global or per route.',
    labelNames: ['scope'],
    registers,
  });
  const http429 = new Counter({
    name: 'macstats_discord_http_429_total',
    help: 'Discord REST responses with status 429 (Too Many Requests).',
    registers,
  });
  const queueDepth = new Gauge({
    name: 'macstats_queue_depth',
    help: 'Messages waiting for their turn to be answered, by queue.',
    labelNames: ['queue'],
    registers,
  });
  return {
    answers,
    answerSeconds,
    modelRequests,
    modelSeconds,
    tokens,
    toolCalls,
    toolFailures,
    toolSeconds,
    containment,
    runs,
    lateness,
    reconnects,
    rateLimited,
    http429,
    queueDepth,
  };
}
