/*
 * Deployments: the list, each with its manifest, channel, state and bar, and the actions its state allows
 * (start / pause / resume / abort, beside the deployment and in its drawer).
 */
import { ui, h, button, fmtTime, scroller, lower, empty, code, act, render, DEPLOYMENT_STATE, pill, progress, manifestRevision } from './core.js';
import { hooked, view } from './registry.js';
import { confirmThen } from './dialogs.js';
import { openDrawer } from './drawer.js';

/** Who steered a deployment: "started by alice 12:03 · aborted by bob" (issue 34). */
function steeredBy(d) {
  const parts = [];
  if (d.startedBy) parts.push(`started by ${d.startedBy}${d.startedAt ? ' ' + fmtTime(d.startedAt) : ''}`);
  if (d.pausedBy && d.paused) parts.push(`paused by ${d.pausedBy}`);
  if (d.abortedBy) parts.push(`aborted by ${d.abortedBy}`);
  return parts.join(' · ');
}

export function fleetName(id) {
  if (id === null || id === undefined) return null;
  const f = (ui.fleets || []).find(x => x.id === id);
  return f ? f.name : `channel #${id}`;
}

export function deploymentActions(d, where) {
  const added = hooked('deploymentActions', d, where).flat();  // each decides for whom (evidence: readers too)
  if (!ui.me.canWrite) return added;
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
  // a FAILED deployment is aborted only to skip what its failures left pending (the API refuses it otherwise: 409)
  const pending = (d.counts && d.counts.pending) || 0;
  if (['DRAFT', 'RUNNING', 'PAUSED'].includes(d.state) || (d.state === 'FAILED' && pending > 0)) {
    out.push(button('Abort…', () => confirmThen({
      title: `Abort “${d.name}”?`,
      body: [
        h('p', { text: d.state === 'FAILED'
          ? `It failed: ${d.failedBecause || 'more systems rolled back than it allows'}. Aborting skips the ${pending} system(s) never started and ends it aborted.`
          : 'Systems not started yet are skipped. Systems under way finish what they were given: aborting does not tear a half-updated system apart — roll such a system back explicitly if that is what you want.' }),
        h('p', { text: 'An aborted deployment cannot be started or resumed again; its systems cannot be taken again.' }),
      ],
      confirm: 'Abort the deployment', danger: true,
    }, post('abort', 'aborted')), { key: `${k}-abort`, class: 'danger secondary', ariaLabel: `Abort ${d.name}` }));
  }
  out.push(...added);
  return out;
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
export function centreWindows(d) {
  const ws = d.centreWindows || [];
  if (!ws.length) return null;
  return h('p', { class: 'muted', 'data-windows': '' }, 'Maintenance windows: ',
    ws.map((w, i) => [i ? ' · ' : '', h('span', { 'data-window': w.centre || '', text: `${w.centre || 'no centre'} ${w.words}` })]));
}

export function renderDeployments() {
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
    // the actions column only when it has something in it (a reader's, from a hook, or a writer's): never a column unnamed
    const actions = new Map(list.map(d => [d.id, deploymentActions(d, 'dep')]));
    const withActions = ui.me.canWrite || [...actions.values()].some(a => a.length);
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
    withActions ? h('td', { class: 'actions' }, actions.get(d.id)) : null));
    return scroller('Deployments', h('table', {},
      h('thead', {}, h('tr', {}, ['Deployment', 'Manifest', 'Channel', 'State', 'Systems', withActions ? 'Actions' : null].filter(Boolean).map(t => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, rows)));
  });
}


view({ name: 'deployments', render: renderDeployments });
