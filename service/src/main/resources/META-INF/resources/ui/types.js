/*
 * System types: each type's card (components, keys, counts, the census bar and "What they run"), its systems and, per
 * system, its devices; problem devices. Other modules add to the card and the system's row and view through hooks.
 */
import { ui, h, button, fmtTime, scroller, headers, empty, code, get, notice, render, SYSTEMS_PAGE } from './core.js';
import { hooked, view } from './registry.js';
import { censusBar, censusList, configurationId, versionsWords } from './census.js';

export function toggle(set, key, after) {
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
      h('td', { 'data-configuration': s.system }, configurationId(s.configurationId)),
      h('td', {}, s.mixed ? h('span', { class: 'pill st-warn', title: 'Its devices are not all in the same channel: the orchestrator leaves it alone until they are.', text: 'mixed' }) : h('span', { class: 'muted', text: 'one channel' })),
      h('td', { class: 'actions' }, button(open ? 'Hide devices' : 'Devices', toggle(ui.openDevices, key, () => loadDevices(key)), {
        class: 'secondary', key: `sys-dev-${key}`, expanded: open, ariaLabel: `Devices of ${s.system}`,
      }), hooked('systemActions', t, s))));
    if (open) {
      const det = ui.devices[key];
      rows.push(h('tr', {}, h('td', { colspan: 9 }, h('div', { class: 'sub' }, systemConfiguration(det), deviceList(det),
        hooked('systemDetail', t, s)))));
    }
  }
  return h('div', {},
    page.total > page.content.length ? h('p', { class: 'muted', text: `Showing the first ${page.content.length} of ${page.total} systems.` }) : null,
    scroller(`Systems of ${t.name}`, h('table', {},
      headers(['System', 'Centre', 'Channel', 'Devices', 'Components', 'Runs', 'Configuration', 'Channels', '']),
      h('tbody', {}, rows))));
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


/** A system's configuration id in its view, with what it is in words (the same id as on its row and in the census). */
function systemConfiguration(det) {
  if (!det || det.error || !det.configurationId) return null;
  return h('p', { 'data-system-configuration': '' }, 'Configuration id ', configurationId(det.configurationId),
    h('span', { class: 'muted', text: ' — names what it runs; systems on the same sets share it' }));
}

function deviceList(det) {
  if (!det) return h('p', { class: 'muted', text: 'Loading…' });
  if (det.error) return h('p', { class: 'muted', text: det.error });
  return scroller('Devices of the system', h('table', {},
    h('thead', {}, h('tr', {}, ['Device', 'Component', 'Runs', 'Assigned', 'hawkBit status', 'Last poll'].map(x => h('th', { scope: 'col', text: x })))),
    h('tbody', {}, det.content.map(dev => h('tr', { 'data-device': dev.controllerId },
      h('td', {}, h('span', { class: 'mono', text: dev.controllerId })),
      h('td', { text: dev.componentType }),
      h('td', {}, dev.installedSet ? h('span', { class: 'set', text: dev.installedSet }) : h('span', { class: 'muted', text: 'nothing' })),
      h('td', {}, dev.assignedSet ? h('span', { class: 'set', text: dev.assignedSet }) : h('span', { class: 'muted', text: '—' })),
      h('td', { text: dev.updateStatus || '—' }),
      h('td', { text: dev.lastPollAt ? fmtTime(dev.lastPollAt) : 'never' }))))));
}

function problemList(typeId) {
  const p = ui.problems[typeId];
  if (!p) return h('p', { class: 'muted', text: 'Loading…' });
  if (p.error) return h('p', { class: 'muted', text: p.error });
  return scroller('Problem devices', h('table', {},
    h('thead', {}, h('tr', {}, ['Device', 'Component', 'Problem'].map(x => h('th', { scope: 'col', text: x })))),
    h('tbody', {}, p.content.map(dev => h('tr', {},
      h('td', {}, h('span', { class: 'mono', text: dev.controllerId })),
      h('td', { text: dev.componentType || '—' }),
      h('td', { text: dev.problem || '' }))))));
}

export function renderTypes() {
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
        scroller(`Components of ${t.name}`, h('table', { class: 'components' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Component' }), h('th', { scope: 'col', text: 'Match query' }),
            t.components.some(c => c.health) ? h('th', { scope: 'col', text: 'Health query (soak)' }) : null)),
          h('tbody', {}, t.components.map(c => h('tr', {}, h('td', { text: c.componentType }), h('td', {}, code(c.match)),
            t.components.some(x => x.health) ? h('td', {}, c.health ? code(c.health) : h('span', { class: 'muted', text: '—' })) : null))))),
        h('p', { class: 'counts' },
          total === null ? h('span', { class: 'muted', text: 'Counting systems…' }) : [
            h('strong', { text: total }), ` system${total === 1 ? '' : 's'} found · `,
            h('strong', { text: mixed }), page.total > page.content.length ? ` mixed (of the first ${page.content.length})` : ' mixed', ' · ',
            h('strong', { text: problems }), ` problem device${problems === 1 ? '' : 's'}`,
            broken ? [' · ', h('span', { class: 'pill st-bad', 'data-type-broken': t.id, text: `${broken} breaking a rule` })] : null]),
        censusBar(census, t),
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
        censusOpen ? h('div', { class: 'sub' }, censusList(census, t)) : null,
        probOpen ? h('div', { class: 'sub' }, h('p', { class: 'muted', text: 'Devices that match a component but form no system (no system key, or several components).' }), problemList(t.id)) : null,
        open ? h('div', { class: 'sub' }, systemsTable(t, page)) : null);
    }));
  });
}


/** With every poll: the first page of each type's systems, its census, and the open system views and problem lists. */
async function loadTypes(next, base) {
  const types = base.types;
  next.systems = {};
  next.census = {};
  await Promise.all(types.map(t => get(`/systemtypes/${t.id}/systems?limit=${SYSTEMS_PAGE}`)
    .then(p => { next.systems[t.id] = p; }).catch(e => { next.systems[t.id] = { error: e.message }; })));
  await Promise.all(types.map(t => get(`/systemtypes/${t.id}/versions`)
    .then(v => { next.census[t.id] = v; }).catch(e => { next.census[t.id] = { error: e.message }; })));
  const reloads = [...ui.openDevices].filter(k => types.some(t => String(t.id) === k.split('/')[0])).map(loadDevices);
  reloads.push(...[...ui.openProblems].map(loadProblems));
  reloads.push(...hooked('load', types));
  await Promise.all(reloads);
}

view({ name: 'types', load: loadTypes, render: renderTypes });
