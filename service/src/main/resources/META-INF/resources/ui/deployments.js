/*
 * Deployments: the list, each with its manifest, channel, state and bar, and the actions its state allows
 * (start / pause / resume / abort, beside the deployment and in its drawer).
 */
import { ui, h, button, fmtTime, scroller, empty, code, render, DEPLOYMENT_STATE, pill, progress, manifestRevision } from './core.js';
import { view } from './registry.js';
import { openDrawer } from './drawer.js';
import { fleetName, deploymentActions } from './deployment-parts.js';

/** Who steered a deployment: "started by alice 12:03 · aborted by bob" (issue 34). */
function steeredBy(d) {
  const parts = [];
  if (d.startedBy) parts.push(`started by ${d.startedBy}${d.startedAt ? ' ' + fmtTime(d.startedAt) : ''}`);
  if (d.pausedBy && d.paused) parts.push(`paused by ${d.pausedBy}`);
  if (d.abortedBy) parts.push(`aborted by ${d.abortedBy}`);
  return parts.join(' · ');
}

/** How many pending systems wait for their centre's maintenance window, as a pill (nothing when none). */
function waitingForWindow(d) {
  const n = d.waitingForWindow || 0;
  if (!n) return null;
  const closed = (d.centreWindows || []).filter(w => !w.open).map(w => `${w.centre || 'no centre'}: ${w.words}`);
  return h('span', { class: 'pill st-pending', 'data-waiting-window': n, title: closed.join('; '),
    text: `${n} waiting for window` });
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
