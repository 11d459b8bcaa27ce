/*
 * What a deployment will do (its plan): shown in a draft's drawer and in the "New deployment" form's preview.
 */
import { h, fmtTime, scroller, lower } from './core.js';

export function planView(plan, note) {
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
    scroller(`Devices of ${s.system}`, h('table', {},
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
