// Demo data for the console: `npm run seed` (or `npm run demo`, which also
// migrates and serves). Everything is written through the SessionStore, as
// an agent would write it, so the demo exercises the real code paths.
//
// Idempotent: sessions have fixed ids and are skipped when already present
// (one left half-written by an interrupted run is deleted and rebuilt);
// app and user state edits are made only for keys whose value differs.
// Timestamps are placed in the recent past so the console shows a realistic
// spread of activity, and they agree with each other: the shared state is set
// before the sessions that read it, and each session is created just before
// its first event (the service stamps creation and edits from the clock, so
// the seed sets the clock back while it writes them). Time travel to any
// event then shows the app: and user: keys the agent saw at that moment.
import { pathToFileURL } from 'node:url';
import { databaseUrl } from '../lib/config';
import { providerOf, redactUrl } from '../lib/db';
import { openServices } from '../lib/services';
import { type JsonValue, type NewEvent, type SessionStore, type StateRecord } from '../lib/session-service';
import { appendEvents, invocationId, stateDeltaEvent, textEvent, toolCallEvents, type EventOptions } from '../lib/testing/factories';

const HOUR = 3600;

interface DemoSession {
  appName: string;
  userId: string;
  sessionId: string;
  state?: StateRecord;
  /** When the first event happened, relative to the seeding moment. */
  startHoursAgo: number;
  spacingSeconds: number;
  events: () => NewEvent[];
}

interface DemoStateEdit {
  /** When the edit was made, relative to the seeding moment. */
  hoursAgo: number;
  appName: string;
  scope: 'app' | 'user';
  userId?: string;
  changes: Record<string, JsonValue>;
  reason: string;
}

const OPERATOR = 'ops@statehouse.example';

/** Token counts as Gemini reports them, so model turns look like real ones. */
function usage(prompt: number, candidates: number): EventOptions['extra'] {
  return {
    usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + candidates },
  };
}

/** One user turn answered by the agent, optionally through one tool call. */
function turn(
  agent: string,
  userText: string,
  reply: string,
  tool?: { name: string; args: Record<string, JsonValue>; response: Record<string, JsonValue>; stateDelta?: StateRecord },
  replyDelta?: StateRecord,
): NewEvent[] {
  const userInvocation = invocationId();
  const events: NewEvent[] = [textEvent('user', userText, { invocationId: userInvocation })];
  if (tool) {
    events.push(
      ...toolCallEvents(
        agent,
        { name: tool.name, args: tool.args, response: tool.response },
        { invocationId: userInvocation, stateDelta: tool.stateDelta },
      ),
    );
  }
  events.push(
    textEvent(agent, reply, {
      invocationId: userInvocation,
      stateDelta: replyDelta,
      extra: { ...usage(180 + userText.length, 40 + Math.round(reply.length / 4)), turnComplete: true },
    }),
  );
  return events;
}

const DIAGNOSTICS = ['wan_link', 'dns_resolution', 'wifi_channel_scan', 'dhcp_leases', 'packet_loss', 'firmware_check'];

/** ~200 events: a long troubleshooting session, for paging and long timelines. */
function routerTroubleshooting(): NewEvent[] {
  const events: NewEvent[] = [];
  for (let round = 0; round < 50; round += 1) {
    const check = DIAGNOSTICS[round % DIAGNOSTICS.length] ?? 'wan_link';
    const degraded = round % 7 === 3;
    const latency = 12 + ((round * 37) % 90);
    const stateDelta: StateRecord = {
      diagnostics_run: round + 1,
      last_check: check,
      last_result: degraded ? 'warn' : 'ok',
      'temp:probe_started_at': round,
    };
    if (round === 30) stateDelta['user:firmware_version'] = '2.4.1';
    if (round === 45) stateDelta['app:known_issue_hx220'] = { summary: '5 GHz drops on channel 149', since: '2026-11-01' };
    events.push(
      ...turn(
        'support_agent',
        round === 0
          ? 'My HX-220 router keeps dropping the connection every few minutes. Can you help?'
          : `Ran it again — ${degraded ? 'still flaky' : 'seems stable for now'}. What should we check next?`,
        degraded
          ? `The ${check.replace(/_/g, ' ')} check shows a warning (${latency} ms). Let's try the next step.`
          : `The ${check.replace(/_/g, ' ')} check passed (${latency} ms). Moving on to the next check.`,
        {
          name: 'run_diagnostic',
          args: { device: 'HX-220', check },
          response: { check, result: degraded ? 'warn' : 'ok', latency_ms: latency },
          stateDelta,
        },
      ),
    );
  }
  return events;
}

const SESSIONS: DemoSession[] = [
  {
    appName: 'support-bot',
    userId: 'alice',
    sessionId: 'refund-order-4711',
    state: { 'user:name': 'Alice Moreau', 'user:plan': 'pro', channel: 'web' },
    startHoursAgo: 26,
    spacingSeconds: 14,
    events: () => {
      // One invocation: the agent looks the order up, answers, then refunds and confirms.
      const refund = invocationId();
      return [
        textEvent('user', 'Hi, I was charged twice for order #4711. Can I get the duplicate refunded?', {
          invocationId: refund,
        }),
        ...toolCallEvents(
          'support_agent',
          {
            name: 'lookup_order',
            args: { order_id: '4711' },
            response: {
              status: 'delivered',
              currency: 'EUR',
              charges: [
                { id: 'ch_1', amount: 49.9 },
                { id: 'ch_2', amount: 49.9 },
              ],
            },
          },
          { invocationId: refund, stateDelta: { order_id: '4711', 'temp:raw_charge_count': 2 } },
        ),
        textEvent('support_agent', 'I can see two charges of €49.90 for order 4711. I will refund the duplicate one.', {
          invocationId: refund,
          extra: usage(388, 24),
        }),
        ...toolCallEvents(
          'support_agent',
          {
            name: 'issue_refund',
            args: { charge_id: 'ch_2', amount: 49.9 },
            response: { refund_id: 're_9c2', status: 'pending' },
          },
          {
            invocationId: refund,
            stateDelta: {
              refund_id: 're_9c2',
              refund_status: 'pending',
              'user:open_tickets': 1,
              'app:refunds_issued_today': 1,
            },
          },
        ),
        textEvent('support_agent', 'Done: refund re_9c2 is on its way and should reach your card in 3–5 business days.', {
          invocationId: refund,
          extra: { ...usage(412, 31), turnComplete: true },
        }),
        ...turn('support_agent', 'Great, thanks!', 'You are welcome, Alice. Anything else I can help with?', undefined, {
          resolved: true,
          'user:open_tickets': 0,
        }),
      ];
    },
  },
  {
    appName: 'support-bot',
    userId: 'bob',
    sessionId: 'password-reset-0192',
    state: { 'user:name': 'Bob Schäfer', 'user:preferred_language': 'de' },
    startHoursAgo: 3,
    spacingSeconds: 20,
    events: () => [
      ...turn(
        'support_agent',
        'Ich kann mich nicht mehr anmelden – das Passwort wird nicht akzeptiert.',
        'Ich habe Ihnen einen Link zum Zurücksetzen an b***@example.com geschickt. Er ist 30 Minuten gültig.',
        {
          name: 'send_password_reset',
          args: { user_id: 'bob' },
          response: { sent: true, expires_in_minutes: 30 },
          stateDelta: { reset_requested: true, 'user:last_reset_at': '2026-11-22T05:02:11Z' },
        },
      ),
    ],
  },
  {
    appName: 'support-bot',
    userId: 'carol',
    sessionId: 'router-troubleshooting',
    state: { 'user:name': 'Carol Nguyen', 'user:device_model': 'HX-220' },
    startHoursAgo: 50,
    spacingSeconds: 20,
    events: routerTroubleshooting,
  },
  {
    appName: 'support-bot',
    userId: 'dave',
    sessionId: 'billing-question-88',
    state: { 'user:name': 'Dave Okafor', 'user:plan': 'starter' },
    startHoursAgo: 0.5,
    spacingSeconds: 30,
    events: () => [
      ...turn(
        'support_agent',
        'What does the team plan cost per seat?',
        'The team plan is €12 per seat per month, billed annually. I have noted your interest.',
        undefined,
        { 'user:interested_in': 'team' },
      ),
      // What a support tool's PATCH leaves behind: a state-only event authored by the user.
      stateDeltaEvent('user', { 'user:plan': 'team', upgrade_source: 'chat' }, { invocationId: `p-${crypto.randomUUID()}` }),
    ],
  },
  {
    appName: 'travel-planner',
    userId: 'alice',
    sessionId: 'lisbon-weekend',
    state: { 'user:home_airport': 'BER', travelers: 2 },
    startHoursAgo: 6,
    spacingSeconds: 9,
    events: () => {
      const planning = invocationId();
      const [transferCall, transferResponse] = toolCallEvents(
        'trip_planner',
        { name: 'transfer_to_agent', args: { agent_name: 'flight_agent' }, response: { result: null } },
        { invocationId: planning },
      );
      transferResponse.actions = { ...transferResponse.actions, transferToAgent: 'flight_agent' };
      return [
        textEvent('user', 'Plan a weekend in Lisbon in May for two, leaving from Berlin.', { invocationId: planning }),
        transferCall,
        transferResponse,
        ...toolCallEvents(
          'flight_agent',
          {
            name: 'search_flights',
            args: { from: 'BER', to: 'LIS', depart: '2027-05-14', return: '2027-05-16', passengers: 2 },
            response: {
              options: [
                { flight: 'TP 553', departs: '07:05', price_eur: 189 },
                { flight: 'FR 1234', departs: '13:40', price_eur: 142 },
                { flight: 'TP 557', departs: '18:55', price_eur: 211 },
              ],
            },
          },
          {
            invocationId: planning,
            stateDelta: { itinerary: { destination: 'Lisbon', dates: ['2027-05-14', '2027-05-16'], flight: null } },
          },
        ),
        textEvent('flight_agent', 'I found three direct flights on 14 May: 07:05 (€189), 13:40 (€142) and 18:55 (€211).', {
          invocationId: planning,
          extra: { ...usage(960, 58), turnComplete: true },
        }),
        ...turn(
          'flight_agent',
          'Take the morning one, please.',
          'TP 553 at 07:05 is on hold for 30 minutes under booking reference LX7Q2P.',
          {
            name: 'hold_booking',
            args: { flight: 'TP 553', passengers: 2 },
            response: { booking_ref: 'LX7Q2P', hold_minutes: 30 },
            stateDelta: {
              booking_ref: 'LX7Q2P',
              itinerary: { destination: 'Lisbon', dates: ['2027-05-14', '2027-05-16'], flight: 'TP 553' },
              'user:trips_booked': 1,
            },
          },
        ),
      ];
    },
  },
  {
    appName: 'travel-planner',
    userId: 'erin',
    sessionId: 'tokyo-cherry-blossom',
    state: { 'user:home_airport': 'SFO', 'user:seat_preference': 'aisle' },
    startHoursAgo: 72,
    spacingSeconds: 25,
    events: () => [
      ...turn(
        'trip_planner',
        'When is the best week to see cherry blossoms in Tokyo (東京) next spring, and what will it cost in dollars?',
        'Peak bloom in Tokyo is usually the last week of March. Hotels near Ueno run about ¥28,000 (≈ $185) a night.',
        {
          name: 'get_exchange_rate',
          args: { base: 'USD', quote: 'JPY' },
          response: { rate: 151.2, as_of: '2026-11-19' },
          stateDelta: { 'app:fx_rates': { USD_JPY: 151.2, EUR_USD: 1.08 }, 'app:fx_updated_at': '2026-11-19T09:00:00Z' },
        },
        { preferred_week: '2027-03-22', budget_usd: 3500 },
      ),
    ],
  },
  {
    appName: 'travel-planner',
    userId: 'frank',
    sessionId: 'new-trip-draft',
    state: { 'user:home_airport': 'JFK' },
    startHoursAgo: 1,
    spacingSeconds: 1,
    // Opened but not used yet: a session with state and no events.
    events: () => [],
  },
];

const STATE_EDITS: DemoStateEdit[] = [
  {
    hoursAgo: 24 * 5,
    appName: 'support-bot',
    scope: 'app',
    changes: { support_hours: 'Mon–Fri 08:00–18:00 CET', escalation_email: 'tier2@example.com' },
    reason: 'Initial support configuration',
  },
  {
    // After his session: time travel in it shows the key absent, as the agent saw it.
    hoursAgo: 2,
    appName: 'support-bot',
    scope: 'user',
    userId: 'bob',
    changes: { vip: true },
    reason: 'Goodwill after outage ticket #5521',
  },
  {
    hoursAgo: 24 * 6,
    appName: 'travel-planner',
    scope: 'app',
    changes: { booking_provider: 'amadeus-sandbox', max_hold_minutes: 30 },
    reason: 'Launch configuration',
  },
  // An app with shared configuration but no sessions yet.
  {
    hoursAgo: 20,
    appName: 'inventory-agent',
    scope: 'app',
    changes: { warehouses: ['AMS-1', 'FRA-2'], reorder_threshold: 25 },
    reason: 'Staged before the agent goes live',
  },
];

export interface SeedReport {
  created: string[];
  skipped: string[];
  rebuilt: string[];
  stateKeysWritten: number;
}

/** A session is opened this long before its first event. */
const CREATED_BEFORE_FIRST_EVENT = 60;

/**
 * Runs `write` with the clock at `seconds` (float seconds since the epoch):
 * the service stamps a session's creation and a state edit with the current
 * time, and demo data must look as if it had been written back then.
 */
async function writtenAt<T>(seconds: number, write: () => Promise<T>): Promise<T> {
  const realNow = Date.now;
  Date.now = () => seconds * 1000;
  try {
    return await write();
  } finally {
    Date.now = realNow;
  }
}

/** Writes the demo data; safe to run again (see the header comment). */
export async function seedDemoData(service: SessionStore, now = Date.now() / 1000): Promise<SeedReport> {
  const report: SeedReport = { created: [], skipped: [], rebuilt: [], stateKeysWritten: 0 };

  for (const edit of STATE_EDITS) {
    const current =
      edit.scope === 'app' ? await service.getAppState(edit.appName) : await service.getUserState(edit.appName, edit.userId ?? '');
    const changes = Object.fromEntries(
      Object.entries(edit.changes).filter(([key, value]) => {
        const entry = current.find((candidate) => candidate.key === key);
        return !entry || JSON.stringify(entry.value) !== JSON.stringify(value);
      }),
    );
    if (Object.keys(changes).length === 0) continue;
    const { hoursAgo, ...request } = edit;
    await writtenAt(now - hoursAgo * HOUR, () => service.editState({ ...request, changes, actor: OPERATOR }));
    report.stateKeysWritten += Object.keys(changes).length;
  }

  for (const spec of SESSIONS) {
    const ref = { appName: spec.appName, userId: spec.userId, sessionId: spec.sessionId };
    const label = `${spec.appName}/${spec.userId}/${spec.sessionId}`;
    const events = spec.events();
    const existing = await service.getSessionSummary(ref);
    // More events than seeded means someone used the demo session since: keep it.
    if (existing && existing.eventCount >= events.length) {
      report.skipped.push(label);
      continue;
    }
    if (existing) {
      await service.deleteSession(ref);
      report.rebuilt.push(label);
    } else {
      report.created.push(label);
    }
    const startAt = now - spec.startHoursAgo * HOUR;
    const session = await writtenAt(startAt - CREATED_BEFORE_FIRST_EVENT, () => service.createSession({ ...ref, state: spec.state }));
    await appendEvents(service, session, events, {
      startAt,
      spacingSeconds: spec.spacingSeconds,
    });
  }
  return report;
}

export function describeSeed(report: SeedReport): string {
  const lines = [
    `Demo data: ${report.created.length} session(s) created, ${report.rebuilt.length} rebuilt, ${report.skipped.length} already present; ${report.stateKeysWritten} shared state key(s) written.`,
  ];
  for (const label of report.rebuilt) lines.push(`  rebuilt (was incomplete): ${label}`);
  return lines.join('\n');
}

/** Migrates (SQLite only, as the app does on start) and seeds the database at DATABASE_URL. */
export async function seedDatabase(url = databaseUrl()): Promise<SeedReport> {
  const services = await openServices(url);
  try {
    return await seedDemoData(services.store);
  } finally {
    await services.close();
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;

if (invokedDirectly) {
  const url = databaseUrl();
  try {
    console.log(`Seeding ${redactUrl(url)}`);
    console.log(describeSeed(await seedDatabase(url)));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(redactUrl(message));
    if (providerOf(url) === 'sqlite' && message.startsWith('Migrating')) {
      // The schema engine needs the SQLite file to itself and gives up after the busy timeout.
      console.error('Is the console or another process using this database? Stop it, then seed again.');
    }
    process.exitCode = 1;
  }
}
