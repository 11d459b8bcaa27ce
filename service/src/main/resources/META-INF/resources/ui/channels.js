/*
 * Channels (only when GET /qawk/v1/fleets answers 200): each channel's release, how it stands, its orchestrator
 * settings, and what comes next (resume a halted release, promote it).
 */
import { ui, h, button, scroller, lower, empty, code, setName, act, render, manifestRevision, pill } from './core.js';
import { hooked, view } from './registry.js';
import { confirmThen } from './dialogs.js';
import { openDrawer } from './drawer.js';

// A release's one word (its state, derived by the service from what happened to it) and its colour.
const RELEASE = { RUNNING: ['running', 'run'], COMPLETE: ['complete', 'ok'], HALTED: ['halted', 'bad'] };

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
    return scroller('Channels', h('table', {},
      h('thead', {}, h('tr', {}, ['Channel', 'Release', 'How it stands', 'Orchestrator', 'Next'].map(x => h('th', { scope: 'col', text: x })))),
      h('tbody', {}, ui.fleets.map(f => {
        const rel = f.release;
        const o = f.orchestrator || {};
        const gate = f.gate || {};
        const next = [];
        if (rel && rel.state === 'HALTED' && ui.me.canWrite) {
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
        next.push(...hooked('channelActions', f).flat());
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
            h('div', { 'data-release-state': rel.state || '' }, rel.state ? pill(RELEASE, rel.state) : null),
            rel.state === 'HALTED' && rel.haltReason ? h('p', { class: 'reason', text: rel.haltReason }) : null,
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


view({ name: 'channels', render: renderChannels });
