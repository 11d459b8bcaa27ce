/*
 * The drawer: one deployment, every system (systems that need a person first), each with its state, reason, devices,
 * timeline and actions (take again, roll back: run-dialogs.js); a draft shows its plan instead. The address follows it
 * (#deployment-12, a new history entry: Back closes it) and it follows the address (app.js: a pasted link, Back and
 * Forward open or close it).
 */
import { ui, h, button, fmtTime, scroller, lower, empty, code, get, render, DEPLOYMENT_STATE, RUN_STATE, DEVICE_STATE,
  pill, progress, manifestRevision } from './core.js';
import { hooked, view, renderView } from './registry.js';
import { deploymentActions, fleetName, centreWindows } from './deployment-parts.js';
import { planView } from './plan.js';
import { takeAgain, rollBack } from './run-dialogs.js';

export function openDrawer(id, opener) {
  ui.opener = opener || document.activeElement;
  const changed = ui.openDeployment !== id;
  ui.openDeployment = id;
  if (changed) {
    ui.drawerData = null;
    ui.openTimelines.clear();
    ui.timelines = {};
    delete ui.rendered['drawer-body'];
  }
  if (location.hash !== `#deployment-${id}`) history.pushState(null, '', `#deployment-${id}`);
  const drawer = document.getElementById('drawer');
  drawer.hidden = false;
  renderDrawer();
  renderView('deployments'); // the list marks the deployment open
  document.getElementById('drawer-title').focus();
  refreshDrawer().then(renderDrawer).catch(() => {});
}

export function closeDrawer() {
  const closed = ui.openDeployment;
  ui.openDeployment = null;
  ui.drawerData = null;
  document.getElementById('drawer').hidden = true;
  if (location.hash) history.pushState(null, '', location.pathname + location.search);
  renderView('deployments'); // the list marks the deployment open
  // the control that opened it (found again by its key: the table may have been rebuilt since), else the row's
  const key = ui.opener && ui.opener.getAttribute && ui.opener.getAttribute('data-key');
  const back = (ui.opener && document.body.contains(ui.opener) ? ui.opener : null)
    || (key && document.querySelector(`[data-key="${CSS.escape(key)}"]`))
    || document.querySelector(`[data-key="dep-open-${closed}"]`);
  if (back) back.focus();
}

/** Reads the open deployment again and shows it: what a dialog of a system calls after its command. */
async function reloadDrawer() {
  await refreshDrawer();
  renderDrawer();
}

export async function refreshDrawer() {
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
    await Promise.all(hooked('drawerLoad', d || { id }));
    if (ui.openDeployment === id) ui.drawerData = { runs, plan };
  } catch (e) {
    if (ui.openDeployment === id) ui.drawerData = { error: e.status === 404 ? 'This deployment no longer exists.' : e.message };
  }
}

function runActions(d, r) {
  if (!ui.me.canWrite) return [];
  const out = [];
  if ((r.state === 'ROLLED_BACK' || r.state === 'ROLLBACK_FAILED') && !d.aborted) {
    out.push(button('Take again…', () => takeAgain(d, r, reloadDrawer), { key: `run-retry-${r.id}`, ariaLabel: `Take ${r.system} again` }));
  }
  if ((r.state === 'RUNNING' || r.state === 'VERIFYING' || r.state === 'SUCCEEDED') && !r.rollbackCause) {
    out.push(button('Roll back…', () => rollBack(d, r, reloadDrawer), { key: `run-rollback-${r.id}`, class: 'danger secondary', ariaLabel: `Roll ${r.system} back by hand` }));
  }
  out.push(...hooked('runActions', d, r).flat());
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
      h('time', { datetime: e.at, text: fmtTime(e.at) }),
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
  return scroller(`Devices of ${r.system}`, h('table', { class: 'devices' },
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
    devicesTable(r),
    hooked('runDetail', d, r));
}

/**
 * What a deployment will do: per system each device's set and order (and who is on it already), why a system would
 * wait, the systems out of scope and why, and when each centre's window opens when the plan says so. {@code note}
 * replaces the draft's sentence on top (the "New deployment" form's preview has no draft yet).
 */

export function renderDrawer() {
  const id = ui.openDeployment;
  if (id === null) return;
  const d = ui.deployments.find(x => x.id === id);
  document.getElementById('drawer-title').textContent = d ? d.name : `Deployment #${id}`;
  const timelines = [...ui.openTimelines].map(t => [t, ui.timelines[t]]);
  render('drawer-body', JSON.stringify([d, ui.drawerData, timelines, ui.me.canWrite, hooked('drawerKey')]), () => {
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
      h('div', {}, deploymentActions(d, 'drawer')),
      hooked('drawerHead', d));
    const data = ui.drawerData;
    let body;
    if (!data) body = h('p', { class: 'muted', text: 'Loading the systems…' });
    else if (data.error) body = empty(data.error);
    else if (data.runs.length) {
      const runs = data.runs.slice().sort((a, b) => rank(a) - rank(b) || a.system.localeCompare(b.system));
      body = h('div', {}, h('h3', { class: 'muted', text: `${runs.length} system(s)` }), runs.map(r => runCard(d, r)));
    } else if (data.plan) body = planView(data.plan);
    else body = empty(d.state === 'DRAFT' ? 'Nothing has started: start the deployment to take its systems.' : 'No system has been in its scope yet.');
    return [head, body];
  });
}

/** Systems that need a person first: rolled back, then under way, then the rest. */
function rank(r) {
  return { ROLLBACK_FAILED: 0, ROLLED_BACK: 1, ROLLING_BACK: 2, RUNNING: 3, VERIFYING: 3, PENDING: 4 }[r.state] ?? 5;
}

view({ name: 'drawer', render: renderDrawer });
