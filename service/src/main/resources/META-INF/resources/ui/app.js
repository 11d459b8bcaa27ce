/*
 * The Orchestrator screen: a static page over the REST API (/qawk/v1). No framework, no build step.
 * Rules kept throughout: data from the API (names, device ids, reasons) is only ever put into the page as text
 * (textContent / text nodes, never innerHTML); the page polls every POLL_MS without reloading and keeps what is
 * open (drawer, timelines, device lists, keyboard focus) across refreshes.
 */
'use strict';

(function () {
  const API = '/qawk/v1';
  const POLL_MS = 2000;
  const SYSTEMS_PAGE = 50;

  const ui = {
    me: { user: null, roles: [], canWrite: false },
    deployments: [],
    types: [],
    systems: {},          // typeId -> systems page
    census: {},           // typeId -> versions (the distinct mixes its systems run)
    openCensus: new Set(),      // type ids whose list of mixes is open
    manifests: [],
    fleets: null,         // null: the channels API is not there (or refused): section hidden
    openDeployment: null, // id of the deployment in the drawer
    drawerData: null,     // { runs, plan, error }
    openTimelines: new Set(),   // run ids
    timelines: {},              // run id -> events
    openSystemLists: new Set(), // type ids
    openDevices: new Set(),     // "typeId/system"
    devices: {},                // "typeId/system" -> detail
    openProblems: new Set(),    // type ids
    problems: {},               // type id -> page
    rendered: {},               // section -> last rendered key
    lastOk: null,
    opener: null,               // element that opened the drawer (focus goes back there)
  };

  // ---------------------------------------------------------------------------------------------------------------
  // Small helpers

  /** Builds an element. attrs: class, text, data-*, aria-*, on<event>, other attributes; children: nodes or strings. */
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = String(v);
      else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.substring(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    append(el, children);
    return el;
  }

  function append(el, children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  function button(label, onClick, opts) {
    const o = opts || {};
    return h('button', {
      type: 'button', class: o.class || '', 'data-key': o.key, 'aria-label': o.ariaLabel,
      'aria-expanded': o.expanded === undefined ? null : String(o.expanded), 'aria-controls': o.controls,
      onclick: onClick,
    }, label);
  }

  function fmtTime(iso) {
    if (!iso) return '';
    const d = new Date(iso);
    return isNaN(d) ? String(iso) : d.toLocaleString();
  }

  /** "12:03": the hour and minute of an instant, in the browser's zone. */
  function fmtHm(iso) {
    const d = new Date(iso);
    return isNaN(d) ? String(iso) : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  }

  /** Who steered a deployment: "started by alice 12:03 · aborted by bob" (issue 34). */
  function steeredBy(d) {
    const parts = [];
    if (d.startedBy) parts.push(`started by ${d.startedBy}${d.startedAt ? ' ' + fmtHm(d.startedAt) : ''}`);
    if (d.pausedBy && d.paused) parts.push(`paused by ${d.pausedBy}`);
    if (d.abortedBy) parts.push(`aborted by ${d.abortedBy}`);
    return parts.join(' · ');
  }

  function fmtClock(iso) {
    const d = new Date(iso);
    return isNaN(d) ? String(iso) : d.toLocaleTimeString();
  }

  function lower(s) {
    return String(s || '').toLowerCase().replace(/_/g, ' ');
  }

  function empty(...parts) {
    return h('div', { class: 'empty' }, ...parts);
  }

  function code(s) {
    return h('code', { text: s });
  }

  function setName(v) {
    if (v === null || v === undefined) return '';
    if (typeof v === 'object') return v.version ? `${v.name}:${v.version}` : (v.name || (v.id !== undefined ? `#${v.id}` : ''));
    return String(v);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // The API

  /** One call of the API; {@code contentType} given: {@code body} is sent as it is (e.g. YAML), else as JSON. */
  async function api(method, path, body, contentType) {
    const opts = {
      method, cache: 'no-store', credentials: 'same-origin', redirect: 'manual',
      headers: { Accept: 'application/json', 'X-Requested-With': 'JavaScript' },
    };
    if (body !== undefined) {
      opts.headers['Content-Type'] = contentType || 'application/json';
      opts.body = contentType ? body : JSON.stringify(body);
    }
    const res = await fetch(API + path, opts);
    if (ui.me.signOut && (res.status === 499 || res.type === 'opaqueredirect')) {
      // the provider's session ended and could not be renewed: the page itself goes to sign in again
      location.reload();
    }
    let data = null;
    const text = await res.text();
    if (text) {
      try { data = JSON.parse(text); } catch (e) { data = text; }
    }
    return { status: res.status, ok: res.ok, data };
  }

  function problemText(r) {
    if (r.status === 401) return 'You are no longer signed in: reload the page to sign in again.';
    if (r.status === 403) return 'Your user may only read: ask an admin to do this.';
    const d = r.data;
    if (d && typeof d === 'object') {
      const errors = Array.isArray(d.errors) ? d.errors.map(e => `${e.field || ''} ${e.message || ''}`.trim()).join('; ') : '';
      return [d.detail || d.title || `HTTP ${r.status}`, errors].filter(Boolean).join(': ');
    }
    return `HTTP ${r.status}`;
  }

  async function get(path) {
    const r = await api('GET', path);
    if (!r.ok) {
      const e = new Error(problemText(r));
      e.status = r.status;
      throw e;
    }
    return r.data;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Notices (action results) and the live indicator

  let noticeTimer = null;

  function notice(text, isError) {
    const el = document.getElementById('notice');
    el.textContent = text;
    el.className = 'notice' + (isError ? ' error' : '');
    el.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => { el.hidden = true; }, isError ? 20000 : 12000);
  }

  function setLive(ok, message) {
    const el = document.getElementById('live');
    if (ok) {
      ui.lastOk = new Date();
      el.textContent = `Live — updated ${ui.lastOk.toLocaleTimeString()}`;
      el.classList.remove('down');
    } else {
      el.textContent = `Not updating: ${message}` + (ui.lastOk ? ` (last update ${ui.lastOk.toLocaleTimeString()})` : '') + ' — retrying';
      el.classList.add('down');
    }
  }

  /** Runs a write; shows its outcome; refreshes at once. Returns the response. */
  async function act(method, path, body, success) {
    const r = await api(method, path, body);
    if (r.ok) {
      notice(typeof success === 'function' ? success(r.data) : success, false);
    } else {
      notice(problemText(r), true);
    }
    await refresh().catch(() => {});
    return r;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Rendering with focus kept: a section is only rebuilt when what it shows changed, and the focused control (by its
  // data-key) is focused again afterwards.

  function render(id, key, build) {
    if (ui.rendered[id] === key) return;
    ui.rendered[id] = key;
    const container = document.getElementById(id);
    const active = document.activeElement;
    const focusKey = active && container.contains(active) ? active.getAttribute('data-key') : null;
    container.replaceChildren(...[build()].flat());
    if (focusKey) {
      const again = container.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
      else if (container.closest('#drawer')) document.getElementById('drawer-title').focus();
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // States in words (never colour alone)

  const DEPLOYMENT_STATE = {
    DRAFT: ['draft', 'pending'], RUNNING: ['running', 'run'], PAUSED: ['paused', 'warn'],
    ABORTING: ['aborting', 'warn'], ABORTED: ['aborted', 'muted'], FINISHED: ['finished', 'ok'], FAILED: ['failed', 'bad'],
  };
  const RUN_STATE = {
    PENDING: ['pending', 'pending'], RUNNING: ['running', 'run'], VERIFYING: ['verifying', 'run'],
    ROLLING_BACK: ['rolling back', 'warn'],
    SUCCEEDED: ['succeeded', 'ok'], ROLLED_BACK: ['rolled back', 'bad'], ROLLBACK_FAILED: ['rollback failed', 'bad'],
    SKIPPED: ['skipped', 'muted'], GIVEN_UP: ['given up', 'muted'],
  };
  const DEVICE_STATE = {
    WAITING: ['waiting', 'pending'], ALREADY_ON_SET: ['already on set', 'ok'], ASSIGNING: ['assigning', 'run'],
    ASSIGNED: ['assigned', 'run'], VERIFYING: ['verifying', 'run'], SUCCEEDED: ['succeeded', 'ok'], FAILED: ['failed', 'bad'],
    NOT_SENT: ['not sent', 'muted'],
    ROLLBACK_WAITING: ['waiting to go back', 'warn'], ROLLBACK_ASSIGNING: ['going back', 'warn'],
    ROLLBACK_ASSIGNED: ['going back', 'warn'], ROLLED_BACK: ['rolled back', 'bad'], ROLLBACK_FAILED: ['failed to go back', 'bad'],
    LEFT_AS_IS: ['left as it was', 'muted'], KEPT: ['kept on its new set', 'warn'], LEFT_SYSTEM: ['left the system', 'bad'],
    TAKEN_OVER: ['taken over in hawkBit', 'bad'],
  };

  function pill(map, value) {
    const [text, cls] = map[value] || [lower(value), 'muted'];
    return h('span', { class: `pill st-${cls}`, text });
  }

  /** The deployment's bar: updated, under way, rolled back (red, hatched), not started, skipped — and the words. */
  function progress(counts, summary) {
    const c = counts || {};
    const total = c.systems || 0;
    const parts = [
      ['updated', c.succeeded || 0, 'seg-updated'],
      ['under way', (c.running || 0) + (c.rollingBack || 0), 'seg-underway'],
      ['verifying', c.verifying || 0, 'seg-verifying'],
      ['rolled back', (c.rolledBack || 0) + (c.rollbackFailed || 0), 'seg-rolledback'],
      ['not started yet', c.pending || 0, 'seg-pending'],
      ['skipped or given up', (c.skipped || 0) + (c.givenUp || 0), 'seg-skipped'],
    ];
    const label = total === 0 ? 'no systems yet'
      : parts.filter(p => p[1] > 0).map(p => `${p[1]} ${p[0]}`).join(', ') + ` of ${total} systems`;
    const bar = h('div', { class: 'bar', role: 'img', 'aria-label': label, title: label });
    for (const [name, n, cls] of parts) {
      if (n > 0 && total > 0) {
        const seg = h('span', { class: cls, 'data-share': name, 'data-count': n, title: `${n} ${name}` });
        seg.style.width = `${(100 * n / total).toFixed(2)}%`;
        bar.append(seg);
      }
    }
    return h('div', { class: 'progress' }, bar, h('span', { class: 'words', text: summary || label }));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Deployments

  function fleetName(id) {
    if (id === null || id === undefined) return null;
    const f = (ui.fleets || []).find(x => x.id === id);
    return f ? f.name : `channel #${id}`;
  }

  function deploymentActions(d, where) {
    if (!ui.me.canWrite) return [];
    const k = `${where}-${d.id}`;
    const out = [];
    const post = (verb, words) => () => act('POST', `/systemdeployments/${d.id}/${verb}`, undefined,
      r => {
        const now = lower(r && r.state);
        return now === words ? `Deployment “${d.name}” ${words}.` : `Deployment “${d.name}” ${words} — now ${now}.`;
      });
    if (d.state === 'DRAFT') out.push(button('Start', post('start', 'started'), { key: `${k}-start`, ariaLabel: `Start ${d.name}` }));
    if (d.state === 'RUNNING') out.push(button('Pause', post('pause', 'paused'), { key: `${k}-pause`, class: 'secondary', ariaLabel: `Pause ${d.name}` }));
    if (d.state === 'PAUSED') out.push(button('Resume', post('resume', 'resumed'), { key: `${k}-resume`, ariaLabel: `Resume ${d.name}` }));
    if (['DRAFT', 'RUNNING', 'PAUSED', 'FAILED'].includes(d.state)) {
      out.push(button('Abort…', () => confirmThen({
        title: `Abort “${d.name}”?`,
        body: [
          h('p', { text: 'Systems not started yet are skipped. Systems under way finish what they were given: aborting does not tear a half-updated system apart — roll such a system back explicitly if that is what you want.' }),
          h('p', { text: 'An aborted deployment cannot be started or resumed again; its systems cannot be taken again.' }),
        ],
        confirm: 'Abort the deployment', danger: true,
      }, post('abort', 'aborted')), { key: `${k}-abort`, class: 'danger secondary', ariaLabel: `Abort ${d.name}` }));
    }
    return out;
  }

  // Which revision of its manifest a deployment (or a release) runs, and a word when the manifest was edited since.
  function manifestRevision(x) {
    if (x === null || x === undefined || x.manifestRevision === null || x.manifestRevision === undefined) return null;
    return [h('span', { class: 'muted', text: ` rev ${x.manifestRevision}` }),
      x.manifestChangedSince ? [' ', h('span', {
        class: 'pill st-warn', 'data-revision-changed': '',
        title: `The manifest has been edited since this started; it keeps running revision ${x.manifestRevision}. A new deployment or release uses the edit.`,
        text: 'edited since',
      })] : null];
  }

  /** How many pending systems wait for their centre's maintenance window, as a pill (nothing when none). */
  function waitingForWindow(d) {
    const n = d.waitingForWindow || 0;
    if (!n) return null;
    const closed = (d.centreWindows || []).filter(w => !w.open).map(w => `${w.centre || 'no centre'}: ${w.words}`);
    return h('span', { class: 'pill st-pending', 'data-waiting-window': n, title: closed.join('; '),
      text: `${n} waiting for window` });
  }

  /** Each centre's maintenance window now, in words (nothing without windows). */
  function centreWindows(d) {
    const ws = d.centreWindows || [];
    if (!ws.length) return null;
    return h('p', { class: 'muted', 'data-windows': '' }, 'Maintenance windows: ',
      ws.map((w, i) => [i ? ' · ' : '', h('span', { 'data-window': w.centre || '', text: `${w.centre || 'no centre'} ${w.words}` })]));
  }

  function renderDeployments() {
    const list = ui.deployments;
    render('deployments-body', JSON.stringify([list, ui.me.canWrite, ui.openDeployment, (ui.fleets || []).map(f => [f.id, f.name])]), () => {
      if (!list.length) {
        return empty(h('strong', { text: 'No system deployments yet.' }), ' ',
          ui.types.length === 0
            ? 'Start with a system type (below), then a manifest; then create a deployment with '
            : ui.me.canWrite ? 'Press “New deployment…” above, or create one with ' : 'Create one with ',
          code('POST /qawk/v1/systemdeployments'),
          ' (a manifest, and optionally a channel and centres) and start it — nothing moves until it is started. ',
          'A channel release with a manifest creates one on its own.');
      }
      const rows = list.slice().sort((a, b) => b.id - a.id).map(d => h('tr', {
        class: d.id === ui.openDeployment ? 'selected' : '', 'data-deployment': d.id,
      },
      h('td', {}, button(d.name, e => openDrawer(d.id, e.currentTarget), {
        class: 'link', key: `dep-open-${d.id}`, ariaLabel: `${d.name}: show every system`,
      }), h('div', { class: 'muted', text: `#${d.id} · created ${fmtTime(d.createdAt)}` }),
      steeredBy(d) ? h('div', { class: 'muted by', 'data-key': `dep-by-${d.id}`, text: steeredBy(d) }) : null),
      h('td', {}, d.manifestName || `#${d.manifestId}`, manifestRevision(d)),
      h('td', { text: fleetName(d.fleetId) || '—' }),
      h('td', {}, pill(DEPLOYMENT_STATE, d.state)),
      h('td', {}, progress(d.counts, d.summary), waitingForWindow(d)),
      h('td', { class: 'actions' }, deploymentActions(d, 'dep'))));
      return h('div', { class: 'table-wrap' }, h('table', {},
        h('thead', {}, h('tr', {}, ['Deployment', 'Manifest', 'Channel', 'State', 'Systems', ui.me.canWrite ? 'Actions' : ''].map(t => h('th', { scope: 'col', text: t })))),
        h('tbody', {}, rows)));
    });
  }

  // ---------------------------------------------------------------------------------------------------------------
  // The drawer: one deployment, every system

  function openDrawer(id, opener) {
    ui.opener = opener || document.activeElement;
    const changed = ui.openDeployment !== id;
    ui.openDeployment = id;
    if (changed) {
      ui.drawerData = null;
      ui.openTimelines.clear();
      ui.timelines = {};
      delete ui.rendered['drawer-body'];
    }
    history.replaceState(null, '', `#deployment-${id}`);
    const drawer = document.getElementById('drawer');
    drawer.hidden = false;
    renderDrawer();
    renderDeployments();
    document.getElementById('drawer-title').focus();
    refreshDrawer().then(renderDrawer).catch(() => {});
  }

  function closeDrawer() {
    const closed = ui.openDeployment;
    ui.openDeployment = null;
    ui.drawerData = null;
    document.getElementById('drawer').hidden = true;
    history.replaceState(null, '', location.pathname + location.search);
    renderDeployments();
    // the control that opened it (found again by its key: the table may have been rebuilt since), else the row's
    const key = ui.opener && ui.opener.getAttribute && ui.opener.getAttribute('data-key');
    const back = (ui.opener && document.body.contains(ui.opener) ? ui.opener : null)
      || (key && document.querySelector(`[data-key="${CSS.escape(key)}"]`))
      || document.querySelector(`[data-key="dep-open-${closed}"]`);
    if (back) back.focus();
  }

  async function refreshDrawer() {
    const id = ui.openDeployment;
    if (id === null) return;
    const d = ui.deployments.find(x => x.id === id);
    try {
      const runs = await get(`/systemdeployments/${id}/runs`);
      let plan = null;
      if (d && d.state === 'DRAFT') {
        plan = await get(`/systemdeployments/${id}/plan`).catch(() => null);
      }
      for (const runId of ui.openTimelines) {
        ui.timelines[runId] = await get(`/systemdeployments/${id}/runs/${runId}/events`).catch(e => ({ error: e.message }));
      }
      if (ui.openDeployment === id) ui.drawerData = { runs, plan };
    } catch (e) {
      if (ui.openDeployment === id) ui.drawerData = { error: e.status === 404 ? 'This deployment no longer exists.' : e.message };
    }
  }

  function runActions(d, r) {
    if (!ui.me.canWrite) return [];
    const out = [];
    if ((r.state === 'ROLLED_BACK' || r.state === 'ROLLBACK_FAILED') && !d.aborted) {
      out.push(button('Take again…', () => takeAgain(d, r), { key: `run-retry-${r.id}`, ariaLabel: `Take ${r.system} again` }));
    }
    if ((r.state === 'RUNNING' || r.state === 'VERIFYING' || r.state === 'SUCCEEDED') && !r.rollbackCause) {
      out.push(button('Roll back…', () => rollBack(d, r), { key: `run-rollback-${r.id}`, class: 'danger secondary', ariaLabel: `Roll ${r.system} back by hand` }));
    }
    return out;
  }

  function timelineToggle(r) {
    const open = ui.openTimelines.has(r.id);
    return button(open ? 'Hide timeline' : 'Timeline', async () => {
      if (ui.openTimelines.has(r.id)) {
        ui.openTimelines.delete(r.id);
      } else {
        ui.openTimelines.add(r.id);
        ui.timelines[r.id] = await get(`/systemdeployments/${r.deploymentId}/runs/${r.id}/events`).catch(e => ({ error: e.message }));
      }
      renderDrawer();
    }, { key: `run-timeline-${r.id}`, class: 'secondary', expanded: open, controls: `timeline-${r.id}`, ariaLabel: `Timeline of ${r.system}` });
  }

  /** Timeline kinds (the event's type, RunEventKind) that mean something went wrong: shown in the colour for bad. */
  const BAD_EVENTS = new Set(['DEVICE_FAILED', 'DEVICE_NOT_VERIFIED', 'DEVICE_LEFT_SYSTEM', 'DEVICE_TAKEN_OVER',
    'ASSIGNMENT_REFUSED', 'SYSTEM_UNHEALTHY', 'ROLLBACK_STARTED', 'DEVICE_FAILED_TO_GO_BACK', 'ROLLBACK_FAILED']);

  function timeline(r) {
    if (!ui.openTimelines.has(r.id)) return null;
    const events = ui.timelines[r.id];
    if (!events) return h('p', { id: `timeline-${r.id}`, class: 'muted', text: 'Loading the timeline…' });
    if (events.error) return h('p', { id: `timeline-${r.id}`, class: 'muted', text: `Could not read the timeline: ${events.error}` });
    if (!events.length) return h('p', { id: `timeline-${r.id}`, class: 'muted', text: 'Nothing has happened to this system yet.' });
    return h('ol', { id: `timeline-${r.id}`, class: 'timeline', 'aria-label': `Timeline of ${r.system}` },
      events.map(e => h('li', { 'data-event': e.type, class: BAD_EVENTS.has(e.type) ? 'ev-bad' : null },
        h('time', { datetime: e.at, title: fmtTime(e.at), text: fmtClock(e.at) }),
        h('span', { class: 'ev-type', text: lower(e.type) }),
        h('span', { text: e.message || '' }),
        e.actor ? h('span', { class: 'muted', text: ` — by ${e.actor}` }) : null)));
  }

  function devicesTable(r) {
    const rows = [];
    for (const [component, devices] of Object.entries(r.components || {})) {
      for (const dev of devices) {
        rows.push(h('tr', { 'data-device': dev.controllerId },
          h('td', { text: component }),
          h('td', {}, h('span', { class: 'mono', text: dev.controllerId })),
          h('td', { class: 'num', text: dev.order }),
          h('td', {}, h('span', { class: 'set', text: dev.fromSet || 'nothing' }), h('span', { class: 'arrow', 'aria-label': 'to', text: '→' }),
            h('span', { class: 'set', text: dev.toSet || `#${dev.toSetId}` })),
          h('td', {}, pill(DEVICE_STATE, dev.state), dev.detail ? h('div', { class: 'muted detail', text: dev.detail }) : null,
            dev.verify && dev.state !== 'VERIFYING' && dev.detail && !dev.detail.includes(dev.verify)
              ? h('div', { class: 'muted detail' }, 'must report ', code(dev.verify)) : null)));
      }
    }
    if (!rows.length) {
      return h('p', { class: 'muted', text: r.state === 'PENDING'
        ? 'Not photographed yet: its devices are recorded, with what each runs, when the system starts.'
        : 'No devices recorded for this system.' });
    }
    return h('div', { class: 'table-wrap' }, h('table', { class: 'devices' },
      h('thead', {}, h('tr', {}, ['Component', 'Device', 'Order', 'From set → to set', 'State'].map(t => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, rows)));
  }

  /** A soaking run: how long it still has to stay healthy (the server's count, refreshed with every poll). */
  function soakLeft(r) {
    if (r.state !== 'VERIFYING' || r.soakSecondsLeft === null || r.soakSecondsLeft === undefined) return null;
    const s = r.soakSecondsLeft;
    const left = s >= 120 ? `${Math.ceil(s / 60)} min` : `${s} s`;
    return h('p', { class: 'soak', 'data-soak-left': s, title: r.soakEndsAt ? `until ${fmtTime(r.soakEndsAt)}` : null },
      h('strong', { text: s > 0 ? `${left} left` : 'soak over' }),
      s > 0 ? ' of its soak: every device must keep reporting its health query, or the whole system goes back'
        : ': it succeeds on the next pass if it is still healthy');
  }

  function runCard(d, r) {
    const wentBack = r.state === 'ROLLED_BACK' || r.state === 'ROLLBACK_FAILED';
    const facts = [r.group ? `centre ${r.group}` : null, `attempt ${r.attempt}`,
      r.currentOrder !== null && r.currentOrder !== undefined && r.state === 'RUNNING' ? `at order ${r.currentOrder}` : null,
      r.failedOrder !== null && r.failedOrder !== undefined ? `failed at order ${r.failedOrder}` : null,
      r.rollbackCause ? (r.rollbackCause === 'MANUAL' ? 'rolled back by hand' : 'rolled back after a failure') : null,
      r.startedAt ? `started ${fmtTime(r.startedAt)}` : null, r.endedAt ? `ended ${fmtTime(r.endedAt)}` : null].filter(Boolean);
    return h('section', { class: 'run' + (wentBack ? ' wentback' : ''), 'data-system': r.system, 'data-run': r.id, 'aria-labelledby': `run-title-${r.id}` },
      h('div', { class: 'run-head' },
        h('h3', { id: `run-title-${r.id}`, text: r.system }),
        pill(RUN_STATE, r.state),
        h('span', { class: 'muted', text: facts.join(' · ') })),
      r.reason ? h('p', { class: 'reason', text: (wentBack ? 'Why: ' : '') + r.reason }) : null,
      soakLeft(r),
      h('div', {}, runActions(d, r), timelineToggle(r)),
      timeline(r),
      devicesTable(r));
  }

  /**
   * What a deployment will do: per system each device's set and order (and who is on it already), why a system would
   * wait, the systems out of scope and why, and when each centre's window opens when the plan says so. {@code note}
   * replaces the draft's sentence on top (the "New deployment" form's preview has no draft yet).
   */
  function planView(plan, note) {
    if (!plan) return null;
    const deviceRow = dev => h('tr', { 'data-device': dev.controllerId },
      h('td', { text: dev.componentType }),
      h('td', {}, h('span', { class: 'mono', text: dev.controllerId })),
      h('td', { class: 'num', text: dev.order }),
      h('td', {},
        h('span', { class: 'set', text: dev.runs || 'nothing' }),
        h('span', { class: 'arrow', text: '→' }),
        h('span', { class: 'set', text: dev.gets }),
        dev.alreadyOnIt ? h('span', { class: 'muted', text: ' (already on it: left alone)' }) : null));
    const system = s => h('section', { class: 'run', 'data-system': s.system },
      h('div', { class: 'run-head' }, h('h3', { text: s.system }), h('span', { class: 'muted', text: s.group ? `centre ${s.group}` : '' })),
      s.held ? h('span', { class: 'pill st-bad', 'data-held': s.system, text: 'held' }) : null,
      s.waiting ? h('p', { class: s.held ? 'reason bad' : 'reason', 'data-waiting': '', text: `Would not start now: ${s.waiting}` }) : null,
      s.mends ? h('p', { class: 'reason', 'data-mends': s.system, text: `Taken: it ${s.mends}` }) : null,
      h('div', { class: 'table-wrap' }, h('table', {},
        h('thead', {}, h('tr', {}, ['Component', 'Device', 'Order', 'Runs → gets'].map(t => h('th', { scope: 'col', text: t })))),
        h('tbody', {}, s.devices.map(deviceRow)))));
    const out = plan.outOfScope || [];
    const takes = `it takes ${plan.systems.length} system(s) to manifest “${plan.manifest}” (orders ${plan.orders.join(', ')})`;
    return h('div', {},
      h('p', { class: 'note', text: note ? `${note} Once started ${takes}.` : `Draft: nothing has moved. Once started ${takes}.` }),
      planWindows(plan),
      unknownNames(plan),
      plan.systems.map(system),
      out.length ? h('div', {}, h('h3', { text: 'Out of scope' }),
        h('ul', {}, out.map(o => h('li', { 'data-out-of-scope': o.system },
          h('strong', { text: o.system }), o.group ? ` (centre ${o.group})` : null, `: ${o.why || lower(o.exclusion)}`)))) : null);
  }

  /** The systems and centres the deployment names that match nothing, in the API's words (with its suggestion). */
  function unknownNames(plan) {
    const unknown = plan.unknownNames || [];
    if (!unknown.length) return null;
    return h('div', { class: 'unknown-names' }, h('h3', { text: 'Names that match nothing' }),
      h('ul', {}, unknown.map(u => h('li', { 'data-unknown': u.name, class: 'reason' },
        h('strong', { text: u.name }), `: ${u.why}`))));
  }

  /**
   * When each centre's window opens, if the plan carries windows (an object by centre, or a list of entries naming
   * their centre); each value is shown as the API words it.
   */
  function planWindows(plan) {
    const w = plan.windows || plan.centreWindows;
    if (!w || typeof w !== 'object') return null;
    const entries = Array.isArray(w)
      ? w.map(x => [x && (x.centre || x.group) || '', x])
      : Object.entries(w);
    if (!entries.length) return null;
    const words = v => {
      if (v === null || v === undefined) return 'no window: any time';
      if (typeof v !== 'object') return String(v);
      const at = v.nextOpensAt || v.opensAt || v.nextWindow || v.next || v.from || v.start;
      return [at ? `opens ${fmtTime(at)}` : null, v.until || v.closesAt ? `until ${fmtTime(v.until || v.closesAt)}` : null,
        v.reason || v.why || v.message || null].filter(Boolean).join(' · ') || JSON.stringify(v);
    };
    return h('div', { 'data-windows': '' }, h('h3', { text: 'Windows' }),
      h('ul', {}, entries.map(([centre, v]) => h('li', {}, centre ? h('strong', { text: `${centre}: ` }) : null, words(v)))));
  }

  function renderDrawer() {
    const id = ui.openDeployment;
    if (id === null) return;
    const d = ui.deployments.find(x => x.id === id);
    document.getElementById('drawer-title').textContent = d ? d.name : `Deployment #${id}`;
    const timelines = [...ui.openTimelines].map(t => [t, ui.timelines[t]]);
    render('drawer-body', JSON.stringify([d, ui.drawerData, timelines, ui.me.canWrite]), () => {
      if (!d) return empty(ui.drawerData && ui.drawerData.error ? ui.drawerData.error : 'Loading…');
      const head = h('div', { class: 'drawer-summary' },
        h('p', {}, pill(DEPLOYMENT_STATE, d.state), ' ', h('span', { text: `manifest “${d.manifestName || d.manifestId}”` }), manifestRevision(d),
          d.fleetId !== null && d.fleetId !== undefined ? h('span', { text: ` · channel ${fleetName(d.fleetId)}` }) : null),
        progress(d.counts, d.summary),
        h('p', { class: 'muted', text: [`up to ${d.maxParallel} at a time`, `${d.maxFailed} may fail`,
          d.verifyTimeoutSeconds ? `devices verify within ${d.verifyTimeoutSeconds} s` : null,
          d.soakSeconds ? `each system soaks ${d.soakSeconds} s` : 'no soak',
          d.byCentre ? 'one centre at a time' : 'centres together',
          d.groups && d.groups.length ? `centres ${d.groups.join(', ')}` : 'every centre',
          d.systems && d.systems.length ? `only ${d.systems.join(', ')}` : null,
          d.startedAt ? `started ${fmtTime(d.startedAt)}` : null, d.endedAt ? `ended ${fmtTime(d.endedAt)}` : null].filter(Boolean).join(' · ') }),
        centreWindows(d),
        h('div', {}, deploymentActions(d, 'drawer'), hooked('drawerActions', d)));
      const data = ui.drawerData;
      let body;
      if (!data) body = h('p', { class: 'muted', text: 'Loading the systems…' });
      else if (data.error) body = empty(data.error);
      else if (data.runs.length) {
        const runs = data.runs.slice().sort((a, b) => rank(a) - rank(b) || a.system.localeCompare(b.system));
        body = h('div', {}, h('h3', { class: 'muted', text: `${runs.length} system(s)` }), runs.map(r => runCard(d, r)));
      } else if (data.plan) body = planView(data.plan);
      else body = empty(d.state === 'DRAFT' ? 'Nothing has started: start the deployment to take its systems.' : 'No system was in scope of this deployment.');
      return [head, body];
    });
  }

  /** Systems that need a person first: rolled back, then under way, then the rest. */
  function rank(r) {
    return { ROLLBACK_FAILED: 0, ROLLED_BACK: 1, ROLLING_BACK: 2, RUNNING: 3, VERIFYING: 3, PENDING: 4 }[r.state] ?? 5;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Dialogs

  function openDialog(dialog, focusEl) {
    const opener = document.activeElement;
    dialog.returnValue = '';
    return new Promise(resolve => {
      const onClose = () => {
        dialog.removeEventListener('close', onClose);
        const key = opener && opener.getAttribute && opener.getAttribute('data-key');
        const again = opener && document.body.contains(opener) ? opener
          : (key && document.querySelector(`[data-key="${CSS.escape(key)}"]`));
        if (again) again.focus();
        else if (ui.openDeployment !== null) document.getElementById('drawer-title').focus();
        resolve(dialog.returnValue === 'confirm');
      };
      dialog.addEventListener('close', onClose);
      dialog.showModal();
      if (focusEl) focusEl.focus();
    });
  }

  async function confirmThen(spec, then) {
    const dialog = document.getElementById('confirm-dialog');
    document.getElementById('confirm-title').textContent = spec.title;
    document.getElementById('confirm-what').replaceChildren(...spec.body);
    const ok = document.getElementById('confirm-confirm');
    ok.textContent = spec.confirm;
    ok.className = spec.danger ? 'danger' : 'primary';
    if (await openDialog(dialog, ok)) await then();
  }

  async function takeAgain(d, r) {
    const dialog = document.getElementById('take-again-dialog');
    const manifest = d.manifestName || `#${d.manifestId}`;
    document.getElementById('take-again-title').textContent = `Take ${r.system} again?`;
    document.getElementById('take-again-what').replaceChildren(
      h('p', {}, 'This gives ', h('strong', { text: r.system }), ' another go within deployment ',
        h('strong', { text: `“${d.name}”` }), ', with ', h('strong', { text: 'this deployment’s manifest' }), ' ',
        h('span', { class: 'set', text: manifest }),
        d.manifestRevision !== null && d.manifestRevision !== undefined ? ` as it was when the deployment started (revision ${d.manifestRevision})` : null,
        ' — not whatever its channel has moved on to since', d.manifestChangedSince ? ', nor the edit made to the manifest since' : null, '.'),
      h('ul', {},
        h('li', {}, h('strong', { text: 'From where the system is now: ' }),
          'before anything moves it is photographed afresh — its devices and the set each runs now are recorded again. ',
          'If it rolls back a second time, it goes back to where it is now, not to where it was before the first attempt.'),
        h('li', { text: 'The system goes back to pending (attempt ' + (r.attempt + 1) + ') and no longer counts as failed; '
          + 'if the deployment had finished or failed, it runs again for this system.' }),
        d.fleetId !== null && d.fleetId !== undefined
          ? h('li', { text: 'If the channel’s release was halted, it stays halted: resume it under Channels as well — a separate decision.' })
          : null),
      r.reason ? h('p', { class: 'muted' }, 'Last attempt: ', h('span', { text: r.reason })) : null);
    document.getElementById('take-again-instead').replaceChildren(
      h('strong', { text: 'Was the manifest itself wrong? ' }),
      'If the build is bad or the versions in the manifest do not go together, taking it again fails again. ',
      'Do not take it again: fix the build, upload it as a new distribution set (a new version), make a new manifest ',
      'with the same orders and release it to the channel — a new deployment with a new photograph. ',
      'Quick test: did other systems succeed with this manifest? ' + otherSystemsWord(r));
    document.getElementById('take-again-confirm').textContent = `Take ${r.system} again`;
    const reason = document.getElementById('take-again-reason');
    reason.value = '';
    if (!(await openDialog(dialog, reason))) return;
    const res = await act('POST', `/systemdeployments/${d.id}/runs/${r.id}/retry`, { reason: reason.value.trim() || null },
      run => `${run.system} taken again: ${lower(run.state)} (attempt ${run.attempt}). It is photographed afresh when it starts.`);
    if (res.ok) {
      ui.openTimelines.add(r.id);
      await refreshDrawer();
      renderDrawer();
    }
  }

  function otherSystemsWord(r) {
    const runs = (ui.drawerData && ui.drawerData.runs) || [];
    const ok = runs.filter(x => x.id !== r.id && x.state === 'SUCCEEDED').length;
    const back = runs.filter(x => x.id !== r.id && (x.state === 'ROLLED_BACK' || x.state === 'ROLLBACK_FAILED')).length;
    if (ok > 0) return `Here ${ok} did — that points at this one system, not at the manifest.`;
    if (back > 0) return `Here none did and ${back} other(s) rolled back too — the manifest is the suspect.`;
    return 'None has finished yet.';
  }

  async function rollBack(d, r) {
    const dialog = document.getElementById('rollback-dialog');
    document.getElementById('rollback-title').textContent = `Roll ${r.system} back by hand?`;
    document.getElementById('rollback-what').replaceChildren(
      h('p', {}, 'Every device of ', h('strong', { text: r.system }), ' that this deployment updated is given again the set it ran when the system was photographed. ',
        'Devices that ran nothing before are left as they are.'),
      h('p', { text: r.state === 'RUNNING'
        ? 'The system is still under way: what has not been sent yet is not sent.'
        : 'The update worked but the system misbehaves: this takes it back to where it was.' }),
      h('p', { class: 'muted', text: 'Afterwards the system can be taken again from the drawer.' }));
    document.getElementById('rollback-confirm').textContent = `Roll ${r.system} back`;
    const reason = document.getElementById('rollback-reason');
    reason.value = '';
    if (!(await openDialog(dialog, reason))) return;
    await act('POST', `/systemdeployments/${d.id}/runs/${r.id}/rollback`, { reason: reason.value.trim() },
      run => `${run.system}: rollback by hand requested.`);
    await refreshDrawer();
    renderDrawer();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // System types and their systems

  function toggle(set, key, after) {
    return async () => {
      if (set.has(key)) set.delete(key); else set.add(key);
      renderTypes();
      if (after) {
        await after().catch(e => notice(e.message, true));
        renderTypes();
      }
    };
  }

  async function loadDevices(key) {
    const [typeId, ...rest] = key.split('/');
    const system = rest.join('/');
    await Promise.all([
      get(`/systemtypes/${typeId}/systems/${encodeURIComponent(system)}`).then(d => { ui.devices[key] = d; }, e => { ui.devices[key] = { error: e.message }; }),
      ...hooked('loadSystem', Number(typeId), system)]);
  }

  async function loadProblems(typeId) {
    ui.problems[typeId] = await get(`/systemtypes/${typeId}/problems?limit=100`).catch(e => ({ error: e.message }));
  }

  function systemsTable(t, page) {
    if (!page) return h('p', { class: 'muted', text: 'Loading…' });
    if (page.error) return h('p', { class: 'muted', text: page.error });
    if (!page.content.length) {
      return empty(h('strong', { text: 'No systems found yet. ' }),
        'A device forms a system when it matches a component query and reports ', code(t.systemKey),
        '. The inventory syncs from hawkBit on a schedule, or now with ', code('POST /qawk/v1/inventory/sync'), '.');
    }
    const rows = [];
    for (const s of page.content) {
      const key = `${t.id}/${s.system}`;
      const open = ui.openDevices.has(key);
      rows.push(h('tr', { 'data-system': s.system },
        h('td', {}, h('strong', { text: s.system })),
        h('td', { text: s.group || '—' }),
        h('td', { text: s.fleet || '—' }),
        h('td', { class: 'num', text: s.devices }),
        h('td', { text: Object.entries(s.components || {}).map(([k, n]) => `${k} ×${n}`).join(', ') }),
        h('td', { 'data-runs': s.system }, runsWords(s)),
        h('td', {}, s.mixed ? h('span', { class: 'pill st-warn', title: 'Its devices are not all in the same channel: the orchestrator leaves it alone until they are.', text: 'mixed' }) : h('span', { class: 'muted', text: 'one channel' })),
        h('td', { class: 'actions' }, button(open ? 'Hide devices' : 'Devices', toggle(ui.openDevices, key, () => loadDevices(key)), {
          class: 'secondary', key: `sys-dev-${key}`, expanded: open, ariaLabel: `Devices of ${s.system}`,
        }), hooked('systemActions', t, s))));
      if (open) {
        const det = ui.devices[key];
        rows.push(h('tr', {}, h('td', { colspan: 8 }, h('div', { class: 'sub' }, deviceList(det), hooked('systemDetail', t, s)))));
      }
    }
    return h('div', {},
      page.total > page.content.length ? h('p', { class: 'muted', text: `Showing the first ${page.content.length} of ${page.total} systems.` }) : null,
      h('div', { class: 'table-wrap' }, h('table', {},
        h('thead', {}, h('tr', {}, ['System', 'Centre', 'Channel', 'Devices', 'Components', 'Runs', 'Channels', ''].map(x => h('th', { scope: 'col', text: x })))),
        h('tbody', {}, rows))));
  }

  /** Each component's sets, e.g. "lane app:2 · terminal term:1, term:2" (nothing: a device that runs nothing). */
  function versionsWords(versions) {
    return Object.entries(versions || {})
      .map(([c, sets]) => `${c} ${sets.map(x => x === null ? 'nothing' : x).join(', ')}`).join(' · ');
  }

  /** What a system runs: the manifest it is fully on, or its sets; a red "broken" pill with the rule it breaks. */
  function runsWords(s) {
    const runs = s.on ? `on ${s.on.name}${s.on.revision ? ` rev ${s.on.revision}` : ''}` : versionsWords(s.versions) || '—';
    if (!s.broken) return h('span', { title: versionsWords(s.versions), text: runs });
    return h('div', {},
      h('span', { class: 'pill st-bad', 'data-broken': s.system, title: s.broken.reason, text: 'broken' }), ' ',
      h('span', { text: runs }),
      h('div', { class: 'reason bad', text: s.broken.reason }));
  }

  /** The census of a type: one bar segment per kind of mix (on a manifest, untested, breaking a rule) and words. */
  function censusBar(c) {
    if (!c || c.error || !c.systems) return null;
    const parts = [];
    let untested = 0;
    for (const m of c.content) {
      if (m.broken) continue;
      if (m.manifests.length) {
        const first = m.manifests[0];
        parts.push([`on ${first.name}${first.revision ? ` rev ${first.revision}` : ''}`, m.systems, 'seg-updated']);
      } else {
        untested += m.systems;
      }
    }
    if (untested) parts.push(['on an untested mix', untested, 'seg-pending']);
    if (c.broken) parts.push(['breaking a rule', c.broken, 'seg-rolledback']);
    const label = parts.map(p => `${p[1]} ${p[0]}`).join(', ');
    const bar = h('div', { class: 'bar', role: 'img', 'aria-label': label, title: label });
    for (const [name, n, cls] of parts) {
      const seg = h('span', { class: cls, 'data-share': name, 'data-count': n, title: `${n} ${name}` });
      seg.style.width = `${(100 * n / c.systems).toFixed(2)}%`;
      bar.append(seg);
    }
    return h('div', { class: 'progress', 'data-census': '' }, bar, h('span', { class: 'words', text: label }));
  }

  function censusList(c) {
    if (!c) return h('p', { class: 'muted', text: 'Loading…' });
    if (c.error) return h('p', { class: 'muted', text: c.error });
    return h('table', { 'data-census-list': '' },
      h('thead', {}, h('tr', {}, ['Systems', 'They run', 'Manifest', 'Rules'].map(x => h('th', { scope: 'col', text: x })))),
      h('tbody', {}, c.content.map(m => h('tr', {},
        h('td', { class: 'num', text: m.systems }),
        h('td', { text: versionsWords(m.versions) }),
        h('td', { text: m.manifests.map(x => `${x.name}${x.revision ? ` rev ${x.revision}` : ''}`).join(', ') || 'none (an untested mix)' }),
        h('td', {}, m.broken ? h('span', { class: 'bad', text: m.broken.reason }) : h('span', { class: 'muted', text: 'kept' }))))));
  }

  function deviceList(det) {
    if (!det) return h('p', { class: 'muted', text: 'Loading…' });
    if (det.error) return h('p', { class: 'muted', text: det.error });
    return h('table', {},
      h('thead', {}, h('tr', {}, ['Device', 'Component', 'Runs', 'Assigned', 'hawkBit status', 'Last poll'].map(x => h('th', { scope: 'col', text: x })))),
      h('tbody', {}, det.content.map(dev => h('tr', { 'data-device': dev.controllerId },
        h('td', {}, h('span', { class: 'mono', text: dev.controllerId })),
        h('td', { text: dev.componentType }),
        h('td', {}, dev.installedSet ? h('span', { class: 'set', text: dev.installedSet }) : h('span', { class: 'muted', text: 'nothing' })),
        h('td', {}, dev.assignedSet ? h('span', { class: 'set', text: dev.assignedSet }) : h('span', { class: 'muted', text: '—' })),
        h('td', { text: dev.updateStatus || '—' }),
        h('td', { text: dev.lastPollAt ? fmtTime(dev.lastPollAt) : 'never' })))));
  }

  function problemList(typeId) {
    const p = ui.problems[typeId];
    if (!p) return h('p', { class: 'muted', text: 'Loading…' });
    if (p.error) return h('p', { class: 'muted', text: p.error });
    return h('table', {},
      h('thead', {}, h('tr', {}, ['Device', 'Component', 'Problem'].map(x => h('th', { scope: 'col', text: x })))),
      h('tbody', {}, p.content.map(dev => h('tr', {},
        h('td', {}, h('span', { class: 'mono', text: dev.controllerId })),
        h('td', { text: dev.componentType || '—' }),
        h('td', { text: dev.problem || '' })))));
  }

  function renderTypes() {
    const key = JSON.stringify([ui.types, ui.systems, ui.census, [...ui.openCensus], [...ui.openSystemLists], [...ui.openDevices], ui.devices, [...ui.openProblems], ui.problems, ui.me.canWrite, hooked('typesKey')]);
    render('systemtypes-body', key, () => {
      if (!ui.types.length) {
        return empty(h('strong', { text: 'No system types yet' }), ' — create one with ', code('POST /qawk/v1/systemtypes'),
          ' or import a Mender topology with ', code('POST /qawk/v1/systemtypes/import'),
          '. It names the components, a query that recognises each one\'s devices, and the field (e.g. ',
          code('attribute.device'), ') that says which system a device is in.');
      }
      return h('div', { class: 'cards' }, ui.types.map(t => {
        const page = ui.systems[t.id];
        const total = page && !page.error ? page.total : null;
        const mixed = page && !page.error ? page.content.filter(s => s.mixed).length : null;
        const problems = page && !page.error ? page.problemDevices : null;
        const open = ui.openSystemLists.has(t.id);
        const probOpen = ui.openProblems.has(t.id);
        const census = ui.census[t.id];
        const censusOpen = ui.openCensus.has(t.id);
        const broken = census && !census.error ? census.broken : 0;
        return h('article', { class: 'card' + (open ? ' wide' : ''), 'data-systemtype': t.id, 'aria-labelledby': `type-${t.id}` },
          h('h3', { id: `type-${t.id}`, text: t.name }),
          h('dl', { class: 'facts' },
            h('dt', { text: 'System key' }), h('dd', {}, code(t.systemKey)),
            h('dt', { text: 'Centre key' }), h('dd', {}, code(t.effectiveGroupKey || t.groupKey || '—'),
              t.groupKey ? null : h('span', { class: 'muted', text: ' (the default)' })),
            hooked('typeFacts', t)),
          h('table', {},
            h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Component' }), h('th', { scope: 'col', text: 'Match query' }),
              t.components.some(c => c.health) ? h('th', { scope: 'col', text: 'Health query (soak)' }) : null)),
            h('tbody', {}, t.components.map(c => h('tr', {}, h('td', { text: c.componentType }), h('td', {}, code(c.match)),
              t.components.some(x => x.health) ? h('td', {}, c.health ? code(c.health) : h('span', { class: 'muted', text: '—' })) : null)))),
          h('p', { class: 'counts' },
            total === null ? h('span', { class: 'muted', text: 'Counting systems…' }) : [
              h('strong', { text: total }), ` system${total === 1 ? '' : 's'} found · `,
              h('strong', { text: mixed }), page.total > page.content.length ? ` mixed (of the first ${page.content.length})` : ' mixed', ' · ',
              h('strong', { text: problems }), ` problem device${problems === 1 ? '' : 's'}`,
              broken ? [' · ', h('span', { class: 'pill st-bad', 'data-type-broken': t.id, text: `${broken} breaking a rule` })] : null]),
          censusBar(census),
          hooked('typeCard', t),
          h('div', {},
            button(open ? 'Hide systems' : `Show systems${total !== null ? ` (${total})` : ''}`, toggle(ui.openSystemLists, t.id), {
              class: 'secondary', key: `type-systems-${t.id}`, expanded: open, ariaLabel: `Systems of ${t.name}`,
            }),
            census && !census.error && census.systems ? button(censusOpen ? 'Hide what they run' : 'What they run', toggle(ui.openCensus, t.id), {
              class: 'secondary', key: `type-census-${t.id}`, expanded: censusOpen,
            }) : null,
            problems ? button(probOpen ? 'Hide problem devices' : `Problem devices (${problems})`, toggle(ui.openProblems, t.id, () => loadProblems(t.id)), {
              class: 'secondary', key: `type-problems-${t.id}`, expanded: probOpen,
            }) : null),
          censusOpen ? h('div', { class: 'sub' }, censusList(census)) : null,
          probOpen ? h('div', { class: 'sub' }, h('p', { class: 'muted', text: 'Devices that match a component but form no system (no system key, or several components).' }), problemList(t.id)) : null,
          open ? h('div', { class: 'sub' }, systemsTable(t, page)) : null);
      }));
    });
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Manifests

  function renderManifests() {
    render('manifests-body', JSON.stringify([ui.manifests, ui.types.map(t => [t.id, t.name]), ui.me.canWrite]), () => {
      if (!ui.manifests.length) {
        return empty(h('strong', { text: 'No manifests yet' }), ui.me.canWrite ? ' — press “New manifest…” above, or create one with ' : ' — create one with ',
          code('POST /qawk/v1/manifests'),
          ' or import a Mender manifest with ', code('POST /qawk/v1/manifests/import'),
          '. A manifest gives each component of a system type a distribution set and an order.');
      }
      const typeName = id => (ui.types.find(t => t.id === id) || {}).name || `#${id}`;
      return h('div', { class: 'table-wrap' }, h('table', {},
        h('thead', {}, h('tr', {}, ['Manifest', 'System type', 'Components by order (set name:version)', 'Changed'].map(x => h('th', { scope: 'col', text: x })))),
        h('tbody', {}, ui.manifests.map(m => {
          const byOrder = new Map();
          for (const c of m.components.slice().sort((a, b) => a.order - b.order || a.componentType.localeCompare(b.componentType))) {
            if (!byOrder.has(c.order)) byOrder.set(c.order, []);
            byOrder.get(c.order).push(c);
          }
          return h('tr', { 'data-manifest': m.id },
            h('td', {}, h('strong', { text: m.name }), h('div', { class: 'muted', text: `#${m.id}` })),
            h('td', { text: typeName(m.systemTypeId) }),
            h('td', {}, h('ol', { class: 'orders' }, [...byOrder.entries()].map(([order, cs], i) => h('li', {},
              h('span', { class: 'order-no', text: `order ${order}` }),
              cs.map((c, j) => [j ? ', ' : '', h('span', { text: `${c.componentType} ` }), h('span', { class: 'set', text: c.distributionSet || `#${c.distributionSetId}` }),
                c.verify ? [h('span', { class: 'muted', text: ' must report ' }), code(c.verify)] : null]),
              i === 0 && byOrder.size > 1 ? h('span', { class: 'muted', text: ' — first' }) : null)))),
            h('td', { class: 'muted', text: fmtTime(m.updatedAt || m.createdAt) }));
        }))));
    });
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Channels (only when GET /qawk/v1/fleets answers 200)

  // Members that form no system get neither half of a release: say how many, and which, on the channel's row.
  function channelProblems(f) {
    const n = f.problemDevices || 0;
    if (!n) return null;
    const listed = f.problems || [];
    return h('details', { class: 'problems', 'data-problems': f.id },
      h('summary', {}, h('span', { class: 'pill st-warn', text: `${n} problem device${n === 1 ? '' : 's'}` }),
        h('span', { class: 'muted', text: ' get nothing from a release' })),
      h('ul', {}, listed.map(p => h('li', {}, code(p.controllerId), ' ', h('span', { text: p.why || lower(p.problem) })))),
      n > listed.length ? h('div', { class: 'muted', text: `and ${n - listed.length} more` }) : null);
  }

  function renderChannels() {
    const section = document.getElementById('channels');
    section.hidden = ui.fleets === null;
    if (ui.fleets === null) return;
    render('channels-body', JSON.stringify([ui.fleets, ui.me.canWrite]), () => {
      if (!ui.fleets.length) {
        return empty(h('strong', { text: 'No channels yet' }), ' — create one with ', code('POST /qawk/v1/fleets'), '.');
      }
      return h('div', { class: 'table-wrap' }, h('table', {},
        h('thead', {}, h('tr', {}, ['Channel', 'Release', 'How it stands', 'Orchestrator', 'Next'].map(x => h('th', { scope: 'col', text: x })))),
        h('tbody', {}, ui.fleets.map(f => {
          const rel = f.release;
          const o = f.orchestrator || {};
          const gate = f.gate || {};
          const next = [];
          if (rel && rel.halted && ui.me.canWrite) {
            next.push(button('Resume release…', () => confirmThen({
              title: `Resume the release of ${f.name}?`,
              body: [h('p', { text: `The release was halted${rel.haltReason ? ': ' + rel.haltReason : ''}.` }),
                h('p', { text: 'Resuming says the release is safe to keep sending. Systems that rolled back stay as they are: take them again from their deployment if they deserve another go.' })],
              confirm: 'Resume the release',
            }, () => act('POST', `/fleets/${f.id}/resume`, undefined, `Release of ${f.name} resumed.`)), { key: `fleet-resume-${f.id}` }));
          }
          if (f.promotesTo !== null && f.promotesTo !== undefined) {
            const target = f.promotesToName || `#${f.promotesTo}`;
            if (gate.canPromote) {
              if (ui.me.canWrite) {
                next.push(button(`Promote to ${target}…`, () => confirmThen({
                  title: `Promote ${f.name}'s release to ${target}?`,
                  body: [h('p', {}, 'The set ', h('span', { class: 'set', text: setName(rel && rel.distributionSet) || '—' }),
                    rel && rel.manifestName ? [' and the manifest ', h('span', { class: 'set', text: rel.manifestName }),
                      rel.manifestRevision ? ` as it ran here (revision ${rel.manifestRevision}${rel.manifestChangedSince ? ', not the edit made since' : ''})` : null] : null,
                    ` become ${target}'s release. Its standalone devices get the set; its systems are taken with the manifest by a new deployment.`)],
                  confirm: `Promote to ${target}`,
                }, () => act('POST', `/fleets/${f.id}/promote`, { orchestrator: true }, `Release of ${f.name} promoted to ${target}.`)), { key: `fleet-promote-${f.id}` }));
              } else {
                next.push(h('span', { class: 'muted', text: `can be promoted to ${target}` }));
              }
            } else {
              next.push(h('p', { class: 'muted', 'data-gate': f.id }, `Not promotable to ${target} yet: `, h('span', { text: gate.reason || 'the gate does not allow it' })));
            }
          }
          return h('tr', { 'data-fleet': f.id },
            h('td', {}, h('strong', { text: f.name }), f.match ? h('div', {}, code(f.match)) : null,
              f.promotesTo !== null && f.promotesTo !== undefined ? h('div', { class: 'muted', text: `promotes to ${f.promotesToName || '#' + f.promotesTo}` }) : null,
              channelProblems(f)),
            h('td', {}, rel ? [
              h('div', {}, 'set ', h('span', { class: 'set', text: setName(rel.distributionSet) || '—' })),
              h('div', {}, 'manifest ', rel.manifestName ? [h('span', { class: 'set', text: rel.manifestName }), manifestRevision(rel)] : h('span', { class: 'muted', text: 'none (set only)' })),
              rel.deploymentId !== null && rel.deploymentId !== undefined
                ? button('Show its systems', e => openDrawer(rel.deploymentId, e.currentTarget), { class: 'link', key: `fleet-dep-${f.id}` }) : null,
            ] : h('span', { class: 'muted', text: 'no release yet' })),
            h('td', {}, rel ? [
              h('div', {}, rel.state ? h('span', { class: 'pill st-muted', text: lower(rel.state) }) : null, ' ',
                rel.halted ? h('span', { class: 'pill st-bad', title: rel.haltReason || '', text: 'halted' }) : null),
              rel.halted && rel.haltReason ? h('p', { class: 'reason', text: rel.haltReason }) : null,
              rel.systemsSummary ? h('div', { class: 'words', text: rel.systemsSummary }) : null,
              rel.devicesSummary ? h('div', { class: 'muted', text: rel.devicesSummary }) : null,
            ] : '—'),
            h('td', { class: 'muted', text: [`up to ${o.maxParallel ?? '?'} at a time`, `${o.maxFailed ?? '?'} may fail`,
              o.byCentre ? 'one centre at a time' : 'centres together', o.centres && o.centres.length ? `centres ${o.centres.join(', ')}` : null,
              o.soakSeconds ? `each system soaks ${o.soakSeconds} s` : null].filter(Boolean).join(' · ') }),
            h('td', {}, next));
        }))));
    });
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Polling

  async function refresh() {
    const [deployments, types, manifests, fleets] = await Promise.all([
      get('/systemdeployments'), get('/systemtypes'), get('/manifests'),
      api('GET', '/fleets').then(r => (r.status === 200 && Array.isArray(r.data) ? r.data : null)).catch(() => null),
    ]);
    const systems = {};
    const census = {};
    await Promise.all(types.map(t => get(`/systemtypes/${t.id}/systems?limit=${SYSTEMS_PAGE}`)
      .then(p => { systems[t.id] = p; }).catch(e => { systems[t.id] = { error: e.message }; })));
    await Promise.all(types.map(t => get(`/systemtypes/${t.id}/versions`)
      .then(v => { census[t.id] = v; }).catch(e => { census[t.id] = { error: e.message }; })));
    const reloads = [...ui.openDevices].filter(k => types.some(t => String(t.id) === k.split('/')[0])).map(loadDevices);
    reloads.push(...[...ui.openProblems].map(loadProblems));
    reloads.push(...hooked('load', types));
    await Promise.all(reloads);
    Object.assign(ui, { deployments, types, manifests, fleets, systems, census });
    await refreshDrawer();
    renderAll();
  }

  function renderAll() {
    renderDeployments();
    renderTypes();
    renderManifests();
    renderChannels();
    renderDrawer();
  }

  async function poll() {
    try {
      if (!document.hidden) {
        await refresh();
        setLive(true);
      }
    } catch (e) {
      setLive(false, e.message);
    } finally {
      setTimeout(poll, POLL_MS);
    }
  }

  async function start() {
    try {
      ui.me = await get('/me');
    } catch (e) {
      ui.me = { user: null, roles: [], canWrite: false };
    }
    const who = document.getElementById('who');
    who.textContent = ui.me.user
      ? `Signed in as ${ui.me.name || ui.me.user} — ${ui.me.canWrite ? 'may change things' : 'read only: actions are hidden'}`
      : 'Not signed in';
    if (ui.me.signOut) {
      // signed in through the identity provider: signing out ends the session there too
      const out = h('a', { id: 'sign-out', class: 'sign-out', href: ui.me.signOut, text: 'Sign out' });
      who.after(out);
    }
    document.body.classList.toggle('read-only', !ui.me.canWrite);
    for (const p of plugins) p(shared);

    document.getElementById('drawer-close').addEventListener('click', closeDrawer);
    document.addEventListener('keydown', e => {
      if (e.key === 'Escape' && ui.openDeployment !== null && !document.querySelector('dialog[open]')) {
        e.preventDefault();
        closeDrawer();
      }
    });
    for (const b of document.querySelectorAll('[data-dialog-cancel]')) {
      b.addEventListener('click', () => b.closest('dialog').close(''));
    }
    const m = /^#deployment-(\d+)$/.exec(location.hash);
    if (m) ui.openDeployment = Number(m[1]);
    if (ui.openDeployment !== null) document.getElementById('drawer').hidden = false;
    poll();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Where the other files of the page add to a section: each hook's functions are called with the section's data and
  // answer nodes (or, for 'load' and 'loadSystem', a promise; for 'typesKey', what the types section's key adds).

  const hooks = { load: [], loadSystem: [], typesKey: [], typeFacts: [], typeCard: [], systemActions: [], systemDetail: [], drawerActions: [] };

  function hook(name, fn) {
    if (!hooks[name]) throw new Error(`no hook ${name}`);
    hooks[name].push(fn);
  }

  function hooked(name, ...args) {
    return hooks[name].map(fn => fn(...args));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // What the other files of the page (the "New …" forms) use; each registers itself with qawk.plugin(install), and
  // install(shared) runs once the user is known.

  const plugins = [];
  const shared = { ui, h, button, code, api, get, problemText, notice, refresh, openDrawer, planView, fmtTime, lower,
    act, confirmThen, pill, setName, versionsWords, hook };
  window.qawk = Object.freeze({ plugin: install => plugins.push(install) });

  document.addEventListener('DOMContentLoaded', start);
}());
