/*
 * What the deployments list and the drawer both show of one deployment: its channel's name, the actions its state
 * allows (start / pause / resume / abort) and its centres' maintenance windows. Its own module, so that the list and
 * the drawer import it rather than each other.
 */
import { ui, h, button, lower, act } from './core.js';
import { hooked } from './registry.js';
import { confirmThen } from './dialogs.js';

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

/** Each centre's maintenance window now, in words (nothing without windows). */
export function centreWindows(d) {
  const ws = d.centreWindows || [];
  if (!ws.length) return null;
  return h('p', { class: 'muted', 'data-windows': '' }, 'Maintenance windows: ',
    ws.map((w, i) => [i ? ' · ' : '', h('span', { 'data-window': w.centre || '', text: `${w.centre || 'no centre'} ${w.words}` })]));
}
