/*
 * The Orchestrator screen's common ground: its state (ui), building elements as text (h), the API, the status line,
 * rendering with focus kept, and states in words. A static page over the REST API (/qawk/v1): no framework, no build
 * step. Rules kept throughout: data from the API (names, device ids, reasons) is only ever put into the page as text
 * (textContent / text nodes, never innerHTML); the page polls every POLL_MS without reloading and keeps what is open
 * (drawer, timelines, device lists, keyboard focus) across refreshes.
 */
import { refresh } from './registry.js';

export const API = '/qawk/v1';
export const POLL_MS = 2000;
export const SYSTEMS_PAGE = 50;
export const ui = {
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
export function h(tag, attrs, ...children) {
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

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function button(label, onClick, opts) {
  const o = opts || {};
  return h('button', {
    type: 'button', class: o.class || '', 'data-key': o.key, 'aria-label': o.ariaLabel,
    'aria-expanded': o.expanded === undefined ? null : String(o.expanded), 'aria-controls': o.controls,
    onclick: onClick,
  }, label);
}

export function fmtTime(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleString();
}

/** "12:03": the hour and minute of an instant, in the browser's zone. */
export function fmtHm(iso) {
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

export function fmtClock(iso) {
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleTimeString();
}

export function lower(s) {
  return String(s || '').toLowerCase().replace(/_/g, ' ');
}

export function empty(...parts) {
  return h('div', { class: 'empty' }, ...parts);
}

export function code(s) {
  return h('code', { text: s });
}

export function setName(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return v.version ? `${v.name}:${v.version}` : (v.name || (v.id !== undefined ? `#${v.id}` : ''));
  return String(v);
}

// ---------------------------------------------------------------------------------------------------------------
// The API

/** One call of the API; {@code contentType} given: {@code body} is sent as it is (e.g. YAML), else as JSON. */
export async function api(method, path, body, contentType) {
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

export function problemText(r) {
  if (r.status === 401) return 'You are no longer signed in: reload the page to sign in again.';
  if (r.status === 403) return 'Your user may only read: ask an admin to do this.';
  const d = r.data;
  if (d && typeof d === 'object') {
    const errors = Array.isArray(d.errors) ? d.errors.map(e => `${e.field || ''} ${e.message || ''}`.trim()).join('; ') : '';
    return [d.detail || d.title || `HTTP ${r.status}`, errors].filter(Boolean).join(': ');
  }
  return `HTTP ${r.status}`;
}

export async function get(path) {
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

export function notice(text, isError) {
  const el = document.getElementById('notice');
  el.textContent = text;
  el.className = 'notice' + (isError ? ' error' : '');
  el.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { el.hidden = true; }, isError ? 20000 : 12000);
}

export function setLive(ok, message) {
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
export async function act(method, path, body, success) {
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

export function render(id, key, build) {
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

export const DEPLOYMENT_STATE = {
  DRAFT: ['draft', 'pending'], RUNNING: ['running', 'run'], PAUSED: ['paused', 'warn'],
  ABORTING: ['aborting', 'warn'], ABORTED: ['aborted', 'muted'], FINISHED: ['finished', 'ok'], FAILED: ['failed', 'bad'],
  AWAITING_APPROVAL: ['awaiting approval', 'warn'], REJECTED: ['rejected', 'muted'],
};
export const RUN_STATE = {
  PENDING: ['pending', 'pending'], RUNNING: ['running', 'run'], VERIFYING: ['verifying', 'run'],
  ROLLING_BACK: ['rolling back', 'warn'],
  SUCCEEDED: ['succeeded', 'ok'], ROLLED_BACK: ['rolled back', 'bad'], ROLLBACK_FAILED: ['rollback failed', 'bad'],
  SKIPPED: ['skipped', 'muted'], GIVEN_UP: ['given up', 'muted'],
};
export const DEVICE_STATE = {
  WAITING: ['waiting', 'pending'], ALREADY_ON_SET: ['already on set', 'ok'], ASSIGNING: ['assigning', 'run'],
  ASSIGNED: ['assigned', 'run'], VERIFYING: ['verifying', 'run'], SUCCEEDED: ['succeeded', 'ok'], FAILED: ['failed', 'bad'],
  NOT_SENT: ['not sent', 'muted'],
  ROLLBACK_WAITING: ['waiting to go back', 'warn'], ROLLBACK_ASSIGNING: ['going back', 'warn'],
  ROLLBACK_ASSIGNED: ['going back', 'warn'], ROLLED_BACK: ['rolled back', 'bad'], ROLLBACK_FAILED: ['failed to go back', 'bad'],
  LEFT_AS_IS: ['left as it was', 'muted'], KEPT: ['kept on its new set', 'warn'], LEFT_SYSTEM: ['left the system', 'bad'],
  TAKEN_OVER: ['taken over in hawkBit', 'bad'],
};

export function pill(map, value) {
  const [text, cls] = map[value] || [lower(value), 'muted'];
  return h('span', { class: `pill st-${cls}`, text });
}

/** The deployment's bar: updated, under way, rolled back (red, hatched), not started, held, skipped — and the words. */
export function progress(counts, summary) {
  const c = counts || {};
  const total = c.systems || 0;
  const parts = [
    ['updated', c.succeeded || 0, 'seg-updated'],
    ['under way', (c.running || 0) + (c.rollingBack || 0), 'seg-underway'],
    ['verifying', c.verifying || 0, 'seg-verifying'],
    ['rolled back', (c.rolledBack || 0) + (c.rollbackFailed || 0), 'seg-rolledback'],
    ['not started yet', (c.pending || 0) - (c.held || 0), 'seg-pending'],
    ['held', c.held || 0, 'seg-pending'],
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

// Which revision of its manifest a deployment (or a release) runs, and a word when the manifest was edited since.
export function manifestRevision(x) {
  if (x === null || x === undefined || x.manifestRevision === null || x.manifestRevision === undefined) return null;
  return [h('span', { class: 'muted', text: ` rev ${x.manifestRevision}` }),
    x.manifestChangedSince ? [' ', h('span', {
      class: 'pill st-warn', 'data-revision-changed': '',
      title: `The manifest has been edited since this started; it keeps running revision ${x.manifestRevision}. A new deployment or release uses the edit.`,
      text: 'edited since',
    })] : null];
}

