// The web view: one page, plain DOM, bundled by scripts/bundle-web.mjs.
// Live (served by the control API at /): it reads the control API's routes,
// follows GET /v1/events by long poll, and its buttons call the same routes
// as the CLI. Report (the HTML file `--report` writes at stop): the same
// rendering over the JSON embedded in the file, with no network and no
// buttons. Every string from the cluster goes in as text (dom.ts).
import type {
  AuditRecordView,
  ChaosEvent,
  ClusterView,
  ErrorBody,
  EventsPage,
  FaultRule,
  GroupSummaryView,
  GroupView,
  NodeOverview,
  PartitionView,
  PartitionsPage,
  PresetSummary,
  ProducerView,
  RecordView,
  RecordsPage,
  TopicSummary,
  TransactionView,
} from '../control/types.js';
import type { ReportData, ReportFile } from './data.js';
import { VirtualList, append, h } from './dom.js';

/** The client keeps at most this many events (the server's ring keeps 10,000). */
const EVENTS_KEPT = 100_000;
const ROW = 20;
const PARTITION_PAGE = 200;
const RECORDS_PAGE = 50;
const TOKEN_KEY = 'kafkaesque-control-token';

const embedded = document.getElementById('kafkaesque-data');
const live = embedded === null;
/** The report's data, once loadReport has read it (null in the live view). */
let report: ReportData | null = null;

async function loadReport(el: HTMLElement): Promise<ReportData> {
  const { eventsGzipBase64, ...rest } = JSON.parse(el.textContent ?? 'null') as ReportFile;
  const gzipped = Uint8Array.from(atob(eventsGzipBase64), (c) => c.charCodeAt(0));
  const inflated = new Blob([gzipped]).stream().pipeThrough(new DecompressionStream('gzip'));
  return { ...rest, events: JSON.parse(await new Response(inflated).text()) as ChaosEvent[] };
}

// ---------------------------------------------------------------- the control API

let token: string | null = null;
if (live) {
  const q = new URLSearchParams(location.search);
  token = q.get('token') ?? sessionStorage.getItem(TOKEN_KEY);
  if (q.has('token')) {
    // Kept for reloads of this tab; out of the address bar and the history.
    sessionStorage.setItem(TOKEN_KEY, token ?? '');
    history.replaceState(null, '', location.pathname + location.hash);
  }
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (err) {
    setConnected(false);
    throw new ApiError(0, 'unreachable', `the control API does not answer (${(err as Error).message})`);
  }
  setConnected(true);
  const json = (await res.json().catch(() => undefined)) as unknown;
  if (!res.ok) {
    const e = json as Partial<ErrorBody> | undefined;
    if (res.status === 401) askToken();
    throw new ApiError(res.status, e?.error ?? 'http_error', e?.message ?? `HTTP ${res.status}`);
  }
  return json as T;
}

const enc = encodeURIComponent;

// ---------------------------------------------------------------- state

const state = {
  cluster: null as ClusterView | null,
  nodes: [] as NodeOverview[],
  topics: [] as TopicSummary[],
  groups: [] as GroupSummaryView[],
  transactions: [] as TransactionView[],
  faults: [] as FaultRule[] | null,
  faultsMessage: '',
  audits: [] as AuditRecordView[],
  events: [] as ChaosEvent[],
  eventsNext: 0,
  eventsDropped: 0,
  topic: null as string | null,
  partitions: new Map<number, PartitionView>(),
  partitionsTotal: 0,
  partitionsAsked: new Set<number>(),
  group: null as string | null,
  groupView: null as GroupView | null,
  records: null as { topic: string; partition: number; page: RecordsPage | null; producers: ProducerView[]; error: string } | null,
  presets: [] as PresetSummary[],
};

// ---------------------------------------------------------------- layout

const statusLine = h('span', { id: 'status', role: 'status' });
const conn = h('span', { id: 'conn', class: live ? 'ok' : '' }, live ? 'live' : 'report');
const meta = h('span', { class: 'meta', id: 'meta' });
const tokenForm = h('form', { id: 'token-form', hidden: true }, h('input', { type: 'password', name: 'token', placeholder: 'control token', autocomplete: 'off' }), h('button', { type: 'submit' }, 'Use token'));
tokenForm.addEventListener('submit', (e) => {
  e.preventDefault();
  token = (tokenForm.elements.namedItem('token') as HTMLInputElement).value;
  sessionStorage.setItem(TOKEN_KEY, token);
  tokenForm.hidden = true;
  void refresh();
  if (!following) void followEvents();
});

function askToken(): void {
  tokenForm.hidden = false;
}

function setConnected(ok: boolean): void {
  conn.className = ok ? 'ok' : 'down';
  conn.textContent = ok ? 'live' : 'disconnected';
}

function say(text: string, bad = false): void {
  statusLine.textContent = text;
  statusLine.style.color = bad ? '#fca5a5' : '';
}

/** Runs a button's action through the API, says how it went, and refreshes. */
function action(label: string, run: () => Promise<unknown>): () => void {
  return () => {
    say(`${label}…`);
    run().then(
      () => {
        say(`${label}: done`);
        void refresh();
      },
      (err: Error) => say(`${label}: ${err.message}`, true),
    );
  };
}

const resetButton = live ? h('button', { class: 'danger', id: 'reset', onclick: () => confirm('Reset the cluster: clear faults, start nodes, delete every topic, group and transaction?') && action('reset', () => api('POST', '/v1/reset'))() }, 'Reset') : null;
document.body.append(
  h('header', {}, h('h1', {}, live ? 'kafkaesque' : 'kafkaesque report'), meta, h('span', { class: 'spacer' }), statusLine, tokenForm, conn, resetButton),
);

function section(id: string, title: string, wide = false): { root: HTMLElement; count: HTMLElement; body: HTMLElement } {
  const count = h('span', { class: 'count muted' });
  const body = h('div');
  const root = h('section', { id, class: wide ? 'wide' : '' }, h('h2', {}, title, count), body);
  return { root, count, body };
}

const nodesS = section('nodes', 'Nodes');
const faultsS = section('faults', 'Fault rules');
const topicsS = section('topics', 'Topics and partitions', true);
const recordsS = section('records', 'Records', true);
const groupsS = section('groups', 'Consumer groups', true);
const txnS = section('transactions', 'Transactions');
const anomaliesS = section('anomalies', 'Audit anomalies');
const timelineS = section('timeline', 'Timeline', true);
const main = h('main');
// The report leads with what went wrong; the live view with the cluster.
const order = live ? [nodesS, faultsS, timelineS, topicsS, recordsS, groupsS, txnS, anomaliesS] : [anomaliesS, timelineS, nodesS, faultsS, topicsS, groupsS, txnS];
append(main, order.map((s) => s.root));
if (!live) anomaliesS.root.classList.add('wide');
document.body.append(main);

// ---------------------------------------------------------------- small renderers

// One formatter for every timestamp: toLocaleTimeString builds a new one per call, ~1 ms each, and a timeline draws 30 rows a frame.
const clockFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit', hour12: false });
const time = (t: number) => `${clockFormat.format(t)}.${String(new Date(t).getMilliseconds()).padStart(3, '0')}`;
const json = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));
const cell = (text: string | number | null | undefined, cls = '') => h('td', { class: cls }, text === null || text === undefined ? '—' : String(text));

function table(head: string[], rows: HTMLElement[], empty: string): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'muted' }, empty);
  return h('table', {}, h('thead', {}, h('tr', {}, ...head.map((x) => h('th', {}, x)))), h('tbody', {}, ...rows));
}

function row(cls: string, cells: (string | number | Node | null | undefined)[], attrs: Record<string, string | ((e: Event) => void)> = {}): HTMLElement {
  return h('div', { class: `row ${cls}`, ...attrs }, ...cells.map((c) => (c instanceof Node ? c : h('span', {}, c === null || c === undefined ? '—' : String(c)))));
}

/** One line for an event: what fired or changed, where. */
export function eventSummary(e: ChaosEvent): string {
  const parts: string[] = [];
  if (e.ruleId) parts.push(`rule ${e.ruleId}`);
  if (e.action) parts.push(e.action);
  if (e.api) parts.push(`on ${e.api}${e.apiVersion !== undefined ? ` v${e.apiVersion}` : ''}`);
  if (e.topic !== undefined) parts.push(`${e.topic}${e.partition !== undefined ? `-${e.partition}` : ''}`);
  if (e.nodeId !== undefined) parts.push(`node ${e.nodeId}`);
  if (e.clientId) parts.push(`client ${e.clientId}`);
  if (e.detail) parts.push(json(e.detail));
  return parts.join(' · ');
}

// ---------------------------------------------------------------- nodes

function renderNodes(): void {
  nodesS.count.textContent = `${state.nodes.length}`;
  const c = state.cluster;
  meta.textContent = c ? `${c.clusterId} · controller ${c.controllerId} · seed ${c.seed ?? '—'} · ${c.bootstrap || 'no live broker'}${c.upstream ? ` · upstream ${c.upstream}` : ''}${report ? ` · written ${new Date(report.writtenAt).toISOString()}` : ''}` : '';
  const rows = state.nodes.map((n) =>
    h(
      'tr',
      { 'data-node': n.nodeId },
      cell(n.nodeId, 'num'),
      cell(`${n.host}:${n.port}`, 'mono'),
      h('td', { class: n.alive ? 'alive' : 'stopped' }, n.alive ? 'alive' : 'stopped'),
      cell(n.leaderships, 'num'),
      live
        ? h(
            'td',
            {},
            n.alive
              ? h('button', { class: 'danger', 'data-action': 'stop', onclick: action(`stop node ${n.nodeId}`, () => api('POST', `/v1/nodes/${n.nodeId}/stop`)) }, 'Stop')
              : h('button', { 'data-action': 'start', onclick: action(`start node ${n.nodeId}`, () => api('POST', `/v1/nodes/${n.nodeId}/start`)) }, 'Start'),
          )
        : null,
    ),
  );
  nodesS.body.replaceChildren(table(['id', 'address', 'state', 'leads', ...(live ? [''] : [])], rows, 'no nodes'));
}

// ---------------------------------------------------------------- faults

const ruleInput = h('textarea', { id: 'rule-json', spellcheck: 'false', placeholder: '{"match":{"api":"Produce"},"trigger":{"type":"nth","n":1},"action":{"type":"drop-response"}}' });
const presetSelect = h('select', { id: 'preset-select' });
const faultsTable = h('div');
if (live) {
  faultsS.body.append(
    faultsTable,
    h(
      'div',
      { class: 'toolbar' },
      h('button', {
        id: 'add-rule',
        onclick: () => {
          let rule: unknown;
          try {
            rule = JSON.parse(ruleInput.value);
          } catch (err) {
            say(`the rule is not JSON: ${(err as Error).message}`, true);
            return;
          }
          action('add rule', () => api('POST', '/v1/faults', rule))();
        },
      }, 'Add rule'),
      presetSelect,
      h('button', { id: 'apply-preset', onclick: () => presetSelect.value && action(`apply preset ${presetSelect.value}`, () => api('POST', `/v1/presets/${enc(presetSelect.value)}/apply`))() }, 'Apply preset'),
      h('button', { class: 'danger', id: 'clear-rules', onclick: action('remove every rule', () => api('DELETE', '/v1/faults')) }, 'Remove all'),
    ),
    ruleInput,
  );
} else faultsS.body.append(faultsTable);

function renderFaults(): void {
  const faults = state.faults;
  faultsS.count.textContent = faults ? `${faults.length}` : '';
  if (!faults) {
    faultsTable.replaceChildren(h('p', { class: 'muted' }, state.faultsMessage));
    return;
  }
  const rows = faults.map((r) =>
    h(
      'tr',
      { 'data-rule': r.id },
      cell(r.id, 'mono'),
      cell(json(r.match ?? {}), 'wrap mono'),
      cell(json(r.trigger), 'wrap mono'),
      cell(json(r.action), 'wrap mono'),
      cell(r.matched, 'num'),
      cell(r.fired, 'num'),
      live ? h('td', {}, h('button', { class: 'danger', onclick: action(`remove rule ${r.id}`, () => api('DELETE', `/v1/faults/${enc(r.id)}`)) }, 'Remove')) : null,
    ),
  );
  faultsTable.replaceChildren(table(['id', 'match', 'trigger', 'action', 'matched', 'fired', ...(live ? [''] : [])], rows, 'no rules'));
}

function renderPresets(): void {
  presetSelect.replaceChildren(h('option', { value: '' }, 'preset…'), ...state.presets.map((p) => h('option', { value: p.name, title: p.description }, p.name)));
}

// ---------------------------------------------------------------- topics and partitions

const topicList = new VirtualList(
  ROW,
  row('head cols-topics', ['topic', 'partitions', 'rf']),
  (i) => {
    const t = state.topics[i]!;
    return row(`clickable cols-topics ${t.name === state.topic ? 'sel' : ''}`, [t.name + (t.internal ? ' (internal)' : ''), t.partitions, t.replicationFactor], { 'data-topic': t.name, onclick: () => selectTopic(t.name) });
  },
);

const partitionList = new VirtualList(
  ROW,
  row('head cols-parts', ['part', 'leader', 'epoch', 'replicas', 'isr', 'start', 'end', 'hw', 'lso', '']),
  (i) => {
    const p = state.partitions.get(i);
    if (!p) return row('cols-parts muted', [i, '…']);
    const buttons = h('span', {},
      h('button', { title: 'browse records', onclick: () => openRecords(state.topic!, p.partition, null) }, '▤'),
      live ? h('button', { title: 'move the leader to the next in-sync replica', 'data-action': 'move-leader', onclick: action(`move leader of ${state.topic}-${p.partition}`, () => api('POST', `/v1/topics/${enc(state.topic!)}/partitions/${p.partition}/leader`, {})) }, '⇄') : null,
    );
    return row(`cols-parts ${p.leader < 0 ? 'stopped' : ''}`, [p.partition, p.leader < 0 ? 'none' : p.leader, p.leaderEpoch, p.replicas.join(','), p.isr.join(','), p.logStartOffset, p.logEndOffset, p.highWatermark, p.lastStableOffset, buttons], { 'data-partition': String(p.partition) });
  },
  (from, to) => void loadPartitions(from, to),
);

const partitionsNote = h('p', { class: 'muted' }, 'select a topic');
topicsS.body.append(h('div', { class: 'split' }, topicList.el, h('div', {}, partitionsNote, partitionList.el)));

function selectTopic(name: string): void {
  state.topic = name;
  state.partitions = new Map();
  state.partitionsAsked = new Set();
  const summary = state.topics.find((t) => t.name === name);
  state.partitionsTotal = summary?.partitions ?? 0;
  if (report) {
    const view = report.topicViews.find((t) => t.name === name);
    for (const p of view?.partitions ?? []) state.partitions.set(p.partition, p);
    partitionsNote.textContent = view ? `${name}: ${state.partitionsTotal} partition(s)` : `${name}: partitions not kept in the report (${report.partitionsOmitted} left out to keep it small)`;
  } else partitionsNote.textContent = `${name}: ${state.partitionsTotal} partition(s)`;
  partitionList.setCount(state.partitionsTotal);
  partitionList.el.scrollTop = 0;
  topicList.schedule();
}

/** Fetches the pages of partitions in [from, to) not asked for since the last refresh. */
async function loadPartitions(from: number, to: number): Promise<void> {
  if (!live || state.topic === null) return;
  const topic = state.topic;
  for (let page = Math.floor(from / PARTITION_PAGE) * PARTITION_PAGE; page < to; page += PARTITION_PAGE) {
    if (state.partitionsAsked.has(page)) continue;
    state.partitionsAsked.add(page);
    try {
      const r = await api<PartitionsPage>('GET', `/v1/topics/${enc(topic)}/partitions?from=${page}&limit=${PARTITION_PAGE}`);
      if (state.topic !== topic) return;
      for (const p of r.partitions) state.partitions.set(p.partition, p);
      if (r.total !== state.partitionsTotal) {
        state.partitionsTotal = r.total;
        partitionList.setCount(r.total);
      }
      partitionList.schedule();
    } catch (err) {
      state.partitionsAsked.delete(page);
      partitionsNote.textContent = `${topic}: ${(err as Error).message}`;
    }
  }
}

function renderTopics(): void {
  topicsS.count.textContent = `${state.topics.length} topics, ${state.topics.reduce((n, t) => n + t.partitions, 0)} partitions`;
  topicList.setCount(state.topics.length);
  if (state.topic !== null && !state.topics.some((t) => t.name === state.topic)) {
    state.topic = null;
    partitionList.setCount(0);
    partitionsNote.textContent = 'select a topic';
  } else if (state.topic !== null && live) {
    // Fresh offsets for the rows in view on the next paint.
    state.partitionsAsked = new Set();
    const t = state.topics.find((x) => x.name === state.topic);
    if (t && t.partitions !== state.partitionsTotal) {
      state.partitionsTotal = t.partitions;
      partitionList.setCount(t.partitions);
    }
    partitionList.schedule();
  }
}

// ---------------------------------------------------------------- records

if (!live) recordsS.root.hidden = true;

async function openRecords(topic: string, partition: number, from: number | null): Promise<void> {
  if (!live) return;
  state.records = { topic, partition, page: state.records?.topic === topic && state.records.partition === partition ? state.records.page : null, producers: [], error: '' };
  try {
    const q = from === null ? `limit=${RECORDS_PAGE}` : `from=${from}&limit=${RECORDS_PAGE}`;
    const [page, producers] = await Promise.all([
      api<RecordsPage>('GET', `/v1/topics/${enc(topic)}/partitions/${partition}/records?${q}`),
      api<{ producers: ProducerView[] }>('GET', `/v1/topics/${enc(topic)}/partitions/${partition}/producers`),
    ]);
    state.records = { topic, partition, page, producers: producers.producers, error: '' };
  } catch (err) {
    state.records.error = (err as Error).message;
  }
  renderRecords();
  recordsS.root.scrollIntoView({ block: 'nearest' });
}

function batchText(r: RecordView): string {
  const b = r.batch;
  const flags = [b.transactional ? (b.aborted ? 'txn aborted' : 'txn') : '', b.compression !== 'none' ? b.compression : ''].filter(Boolean).join(' ');
  return `@${b.baseOffset} pid ${b.producerId} e${b.producerEpoch} seq ${b.baseSequence}${flags ? ` ${flags}` : ''}`;
}

function renderRecords(): void {
  const r = state.records;
  if (!r) {
    recordsS.body.replaceChildren(h('p', { class: 'muted' }, 'choose ▤ on a partition to browse its records'));
    return;
  }
  const page = r.page;
  const go = (from: number) => () => void openRecords(r.topic, r.partition, Math.max(0, from));
  const nav = h(
    'div',
    { class: 'toolbar' },
    h('strong', {}, `${r.topic}-${r.partition}`),
    page ? h('span', { class: 'muted' }, `log ${page.logStartOffset}…${page.logEndOffset}, hw ${page.highWatermark}, lso ${page.lastStableOffset}`) : null,
    page ? h('button', { onclick: go(page.logStartOffset) }, '⇤ first') : null,
    page ? h('button', { onclick: go((page.records[0]?.offset ?? page.nextOffset) - RECORDS_PAGE) }, '← older') : null,
    page ? h('button', { id: 'records-newer', onclick: go(page.nextOffset) }, 'newer →') : null,
    page ? h('button', { onclick: go(page.logEndOffset - RECORDS_PAGE) }, 'last ⇥') : null,
    h('button', { onclick: () => void openRecords(r.topic, r.partition, page?.records[0]?.offset ?? null) }, '↻'),
    r.error ? h('span', { class: 'msg' }, r.error) : null,
  );
  const rows = (page?.records ?? []).map((x) =>
    h(
      'tr',
      { class: x.batch.aborted ? 'muted' : '', 'data-offset': x.offset },
      cell(x.offset, 'num'),
      cell(time(x.timestamp), 'mono'),
      cell(x.control !== null ? `${x.control} marker` : x.key, 'wrap mono record-key'),
      cell(x.control !== null ? '' : x.value, 'wrap mono record-value'),
      cell(x.headers.map((hd) => `${hd.key}=${hd.value ?? 'null'}`).join('; '), 'wrap mono record-headers'),
      cell(batchText(x), 'mono'),
    ),
  );
  const producers = r.producers.map((p) => h('tr', {}, cell(p.producerId, 'num'), cell(p.producerEpoch, 'num'), cell(p.lastSequence, 'num'), cell(p.currentTxnStartOffset), cell(time(p.lastTimestamp), 'mono')));
  recordsS.body.replaceChildren(
    nav,
    table(['offset', 'time', 'key', 'value', 'headers', 'batch'], rows, page ? 'no records from here' : 'loading…'),
    h('h2', {}, 'Producers of this partition'),
    table(['producer id', 'epoch', 'last seq', 'open txn from', 'last write'], producers, 'none remembered'),
  );
}

// ---------------------------------------------------------------- groups

const groupList = new VirtualList(
  ROW,
  row('head cols-groups', ['group', 'state', 'members', 'coordinator']),
  (i) => {
    const g = state.groups[i]!;
    return row(`clickable cols-groups ${g.groupId === state.group ? 'sel' : ''}`, [g.groupId, g.state, g.members, g.coordinator], { 'data-group': g.groupId, onclick: () => void selectGroup(g.groupId) });
  },
);
const groupDetail = h('div', {}, h('p', { class: 'muted' }, 'select a group'));
groupsS.body.append(h('div', { class: 'split' }, groupList.el, groupDetail));

async function selectGroup(id: string): Promise<void> {
  state.group = id;
  groupList.schedule();
  if (report) state.groupView = report.groupViews.find((g) => g.groupId === id) ?? null;
  else {
    try {
      state.groupView = await api<GroupView>('GET', `/v1/groups/${enc(id)}`);
    } catch (err) {
      state.groupView = null;
      groupDetail.replaceChildren(h('p', { class: 'msg' }, (err as Error).message));
      return;
    }
  }
  renderGroup();
}

function renderGroup(): void {
  const g = state.groupView;
  if (!g) {
    groupDetail.replaceChildren(h('p', { class: 'muted' }, state.group ? 'not kept' : 'select a group'));
    return;
  }
  const members = g.members.map((m) =>
    h('tr', {}, cell(m.memberId, 'wrap mono'), cell(m.clientId, 'mono'), cell(m.clientHost, 'mono'), cell(m.assignment ? m.assignment.map((a) => `${a.topic}[${a.partitions.join(',')}]`).join(' ') : 'not a consumer assignment', 'wrap mono')),
  );
  const offsets = g.offsets.map((o) => h('tr', {}, cell(`${o.topic}-${o.partition}`, 'mono'), cell(o.offset, 'num'), cell(o.lag, 'num'), cell(o.metadata, 'mono')));
  groupDetail.replaceChildren(
    h('p', {}, h('strong', {}, g.groupId), ` ${g.state} · generation ${g.generationId} · ${g.protocolType ?? '—'}/${g.protocolName ?? '—'} · leader ${g.leaderId ?? '—'} · coordinator ${g.coordinator}`),
    table(['member', 'client id', 'host', 'assignment'], members, 'no members'),
    h('p', {}),
    table(['partition', 'committed', 'lag', 'metadata'], offsets, 'no committed offsets'),
  );
}

function renderGroups(): void {
  groupsS.count.textContent = `${state.groups.length}`;
  groupList.setCount(state.groups.length);
}

// ---------------------------------------------------------------- transactions

function renderTransactions(): void {
  txnS.count.textContent = `${state.transactions.length}`;
  const rows = state.transactions.map((t) =>
    h('tr', {}, cell(t.transactionalId, 'mono'), cell(t.producerId, 'num'), cell(t.producerEpoch, 'num'), cell(t.state + (t.pendingState ? ` → ${t.pendingState}` : '')), cell(t.partitions.map((p) => `${p.topic}-${p.partition}`).join(' '), 'wrap mono'), cell(t.timeoutMs, 'num')),
  );
  txnS.body.replaceChildren(table(['transactional id', 'producer id', 'epoch', 'state', 'partitions', 'timeout ms'], rows, 'no transactional ids'));
}

// ---------------------------------------------------------------- timeline

let shown: number[] = []; // indices into state.events that pass the filter
let flashSeq = -1;
const filterInput = h('input', { id: 'timeline-filter', type: 'search', placeholder: 'filter: kind, rule, topic, client…' });
const timelineNote = h('span', { class: 'muted' });
const timeline = new VirtualList(
  ROW,
  row('head cols-events', ['seq', 'time', 'kind', 'what']),
  (i) => {
    const e = state.events[shown[i]!]!;
    return row(`cols-events k-${e.kind} ${e.seq === flashSeq ? 'flash' : ''}`, [e.seq, time(e.time), e.kind, eventSummary(e)], { 'data-seq': String(e.seq), id: `event-${e.seq}` });
  },
  undefined,
  '',
  400,
);
// Leader changes of __consumer_offsets and __transaction_state (50 partitions each) bury the rest when a node stops.
const internalBox = h('input', { type: 'checkbox', id: 'timeline-internal' });
timelineS.body.append(h('div', { class: 'toolbar' }, filterInput, h('label', { class: 'check' }, internalBox, "internal topics' leader changes"), timelineNote), timeline.el);
filterInput.addEventListener('input', () => refilter());
internalBox.addEventListener('change', () => refilter());

// What the filter searches, made once per event: with 100,000 events a keystroke must not format them all again.
const searchText = new WeakMap<ChaosEvent, string>();
function searchable(e: ChaosEvent): string {
  let text = searchText.get(e);
  if (text === undefined) searchText.set(e, (text = `${e.seq} ${e.kind} ${eventSummary(e)}`.toLowerCase()));
  return text;
}

function matches(e: ChaosEvent, f: string): boolean {
  if (!internalBox.checked && e.kind === 'leader-changed' && e.topic?.startsWith('__')) return false;
  return f === '' || searchable(e).includes(f);
}

// The filter `shown` was made with: a filter that only grows it (typing on) searches what it showed, not every event.
let shownFilter = '';
let shownInternal = false;

function refilter(): void {
  const f = filterInput.value.trim().toLowerCase();
  const narrowing = f.includes(shownFilter) && shownInternal === internalBox.checked && shownFilter !== f;
  const from = narrowing ? shown : null;
  shown = [];
  if (from) for (const i of from) matches(state.events[i]!, f) && shown.push(i);
  else for (let i = 0; i < state.events.length; i++) if (matches(state.events[i]!, f)) shown.push(i);
  shownFilter = f;
  shownInternal = internalBox.checked;
  timeline.setCount(shown.length);
  noteEvents();
}

function noteEvents(): void {
  const dropped = state.eventsDropped ? `, ${state.eventsDropped} older ones dropped` : '';
  timelineS.count.textContent = `${state.events.length} events${dropped}`;
  timelineNote.textContent = shown.length === state.events.length ? '' : `${shown.length} shown`;
}

function addEvents(events: ChaosEvent[]): void {
  if (events.length === 0) return;
  const follow = timeline.atBottom();
  const first = state.events[state.events.length - 1]?.seq ?? 0;
  if (events[0]!.seq > first + 1) state.eventsDropped += events[0]!.seq - first - 1;
  state.events.push(...events);
  if (state.events.length > EVENTS_KEPT) {
    const cut = state.events.length - EVENTS_KEPT;
    state.events.splice(0, cut);
    state.eventsDropped += cut;
    refilter();
  } else {
    const f = filterInput.value.trim().toLowerCase();
    const base = state.events.length - events.length;
    events.forEach((e, k) => matches(e, f) && shown.push(base + k));
    timeline.setCount(shown.length);
    noteEvents();
  }
  if (follow) requestAnimationFrame(() => timeline.scrollToBottom());
  // Ready the filter's text while the page is idle, so the first keystroke does not make 100,000 of them.
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => events.forEach(searchable));
}

/** Scrolls the timeline to an event and marks it (an anomaly's link to the faults before it). */
function showEvent(seq: number): void {
  if (filterInput.value || !internalBox.checked) {
    filterInput.value = '';
    internalBox.checked = true;
    refilter();
  }
  const i = shown.findIndex((k) => state.events[k]!.seq === seq);
  if (i < 0) {
    say(`event ${seq} is no longer kept`, true);
    return;
  }
  flashSeq = seq;
  timelineS.root.scrollIntoView({ block: 'nearest' });
  timeline.scrollToIndex(i);
}

let following = false;
async function followEvents(): Promise<void> {
  following = true;
  for (;;) {
    try {
      const page = await api<EventsPage>('GET', `/v1/events?since=${state.eventsNext}&limit=10000&wait=25000`);
      if (page.next < state.eventsNext) {
        // A reset or another run: the sequence started again.
        state.events = [];
        state.eventsDropped = 0;
        refilter();
      }
      state.eventsNext = page.next;
      addEvents(page.events);
      if (page.events.length) scheduleRefresh(100);
    } catch (err) {
      const e = err as ApiError;
      if (e.status === 401) {
        following = false;
        return;
      }
      timelineNote.textContent = e.message;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

// ---------------------------------------------------------------- anomalies

function renderAnomalies(): void {
  const all = state.audits.flatMap((a) => a.anomalies.map((x) => ({ audit: a, anomaly: x })));
  anomaliesS.count.textContent = `${all.length}`;
  if (all.length === 0) {
    anomaliesS.body.replaceChildren(h('p', { class: 'muted' }, live ? 'no audit has found anything yet' : 'no audit found anything'));
    return;
  }
  anomaliesS.body.replaceChildren(
    ...all.map(({ audit, anomaly }) => {
      const before = anomaly.precededBy.slice(-12);
      return h(
        'div',
        { class: 'anomaly', 'data-kind': anomaly.kind },
        h('span', { class: 'kind' }, anomaly.kind),
        h('span', { class: 'anomaly-message' }, anomaly.message),
        h('div', { class: 'muted' }, `audit ${audit.seq} of ${audit.topics.join(', ')} at ${time(audit.time)}; faults and changes before it: `, ...(before.length ? before.map((e) => h('a', { href: `#event-${e.seq}`, 'data-seq': String(e.seq), onclick: (ev: Event) => (ev.preventDefault(), showEvent(e.seq)) }, `#${e.seq} ${e.kind}${e.ruleId ? ` ${e.ruleId}` : ''}${e.api ? ` ${e.api}` : ''}`)) : ['none'])),
      );
    }),
  );
}

// ---------------------------------------------------------------- refresh

function renderAll(): void {
  renderNodes();
  renderFaults();
  renderTopics();
  renderGroups();
  renderTransactions();
  renderAnomalies();
}

let refreshing: Promise<void> | null = null;
let again = false;
async function refresh(): Promise<void> {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    const soft = <T>(p: Promise<T>, fallback: T, onError?: (e: ApiError) => void) => p.catch((e: ApiError) => (onError?.(e), fallback));
    const [cluster, nodes, topics, groups, transactions, faults, audits] = await Promise.all([
      soft(api<ClusterView>('GET', '/v1/cluster'), state.cluster, (e) => say(e.message, true)),
      soft(api<{ nodes: NodeOverview[] }>('GET', '/v1/nodes').then((r) => r.nodes), [] as NodeOverview[]),
      soft(api<{ topics: TopicSummary[] }>('GET', '/v1/topics').then((r) => r.topics), [] as TopicSummary[]),
      soft(api<{ groups: GroupSummaryView[] }>('GET', '/v1/groups').then((r) => r.groups), [] as GroupSummaryView[]),
      soft(api<{ transactions: TransactionView[] }>('GET', '/v1/transactions').then((r) => r.transactions), [] as TransactionView[]),
      soft(api<{ faults: FaultRule[] }>('GET', '/v1/faults').then((r) => r.faults), null, (e) => (state.faultsMessage = e.message)),
      soft(api<{ audits: AuditRecordView[] }>('GET', '/v1/audits').then((r) => r.audits), [] as AuditRecordView[]),
    ]);
    Object.assign(state, { cluster, nodes: nodes.length || !cluster ? nodes : cluster.nodes.map((n) => ({ ...n, leaderships: 0 })), topics, groups, transactions, faults, audits });
    renderAll();
    if (state.group !== null) await selectGroup(state.group);
  })().finally(() => {
    refreshing = null;
    if (again) {
      again = false;
      scheduleRefresh(0);
    }
  });
  return refreshing;
}

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
/** Offsets move without events (a produce is no event): the view also looks again every 2 s. */
function scheduleRefresh(ms: number): void {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => void refresh().finally(() => scheduleRefresh(2000)), ms);
}

function showReport(data: ReportData): void {
  report = data;
  state.cluster = report.cluster;
  state.nodes = report.nodes;
  state.topics = report.topics;
  state.groups = report.groups;
  state.transactions = report.transactions;
  state.faults = report.faults;
  state.audits = report.audits;
  state.eventsDropped = report.eventsDropped;
  renderAll();
  addEvents(report.events);
  refilter();
  document.title = `kafkaesque report: ${report.audits.reduce((n, a) => n + a.anomalies.length, 0)} anomalies, ${report.events.length} events`;
}

if (embedded) {
  loadReport(embedded).then(showReport, (err: Error) => say(`the report's data could not be read: ${err.message}`, true));
} else {
  renderRecords();
  void api<{ presets: PresetSummary[] }>('GET', '/v1/presets').then((r) => ((state.presets = r.presets), renderPresets()), () => {});
  void refresh().then(() => scheduleRefresh(2000));
  void followEvents();
}
