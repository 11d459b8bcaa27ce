/*
 * "New deployment": a manifest, the scope (channel, centres in order, systems), how many at a time and how many may
 * fail, one centre at a time, soak, order and verify timeouts, windows. "See the plan" asks the API what the request
 * would do (POST /systemdeployments/plan: nothing is stored) and shows it; from there "Start now" creates the
 * deployment and starts it, "Keep as a draft" only creates it. What is typed is kept (localStorage) until it is
 * created or "Start over" is pressed. Only optional fields the operator filled in are sent.
 */
import { plugin } from './registry.js';
plugin(shared => {
  if (!shared.ui.me.canWrite) return;
  const { h, ui, api } = shared;
  const f = shared.forms;
  const dialog = document.getElementById('deployment-form-dialog');
  const body = document.getElementById('deployment-form-body');
  const store = f.draft('deployment');
  const WINDOW_FIELDS = ['schedule', 'duration', 'timezone'];
  let v = null;       // what is typed
  let request = null; // the body the plan was asked for

  document.getElementById('deployments-actions').append(
    shared.button('New deployment…', open, { key: 'new-deployment', ariaLabel: 'New deployment' }));

  function blank() {
    return { name: '', manifestId: '', fleetId: '', groups: '', systems: '', maxParallel: '1', maxFailed: '0',
      byCentre: false, orderTimeoutSeconds: '', soakSeconds: '', verifyTimeoutSeconds: '',
      window: { schedule: '', duration: '', timezone: '' }, centreWindows: [] };
  }

  function open() {
    const kept = store.load();
    v = Object.assign(blank(), kept || {});
    showForm(!!kept);
    f.show(dialog, body.querySelector('[name=name]'));
  }

  function changed() {
    store.save(v);
  }

  function manifestOf(id) {
    return ui.manifests.find(m => String(m.id) === String(id)) || null;
  }

  /** Centres the systems of the manifest's type are in (of the systems the page has read). */
  function knownCentres() {
    const m = manifestOf(v.manifestId);
    const page = m && ui.systems[m.systemTypeId];
    if (!page || page.error) return [];
    return [...new Set(page.content.map(s => s.group).filter(Boolean))].sort();
  }

  function showForm(restored) {
    const typeName = id => (ui.types.find(t => t.id === id) || {}).name || `#${id}`;
    const manifests = [['', ui.manifests.length ? '— choose a manifest —' : '— no manifests yet —'],
      ...ui.manifests.map(m => [String(m.id), `${m.name} (${typeName(m.systemTypeId)})`])];
    const groups = f.textInput('groups', v, 'groups', () => { changed(); }, { placeholder: 'e.g. c03, c04' });
    const chips = h('span', { class: 'chips' });
    const fillChips = () => {
      const known = knownCentres();
      chips.replaceChildren(...(known.length ? ['Centres found: ', ...known.map(c => shared.button(`+ ${c}`, () => {
        const list = f.names(v.groups);
        if (!list.includes(c)) list.push(c);
        v.groups = groups.value = list.join(', ');
        changed();
      }, { class: 'secondary', ariaLabel: `Add centre ${c}` }))] : []));
    };
    const manifest = f.selectInput('manifestId', manifests, v, 'manifestId', () => { fillChips(); changed(); });
    fillChips();
    const num = (name, attrs) => f.textInput(name, v, name, changed, Object.assign({ inputmode: 'numeric' }, attrs || {}));

    const form = h('form', { id: 'deployment-form', novalidate: true },
      restored ? h('p', { class: 'note restored', text: 'What you entered last time is back. “Start over” empties the form.' }) : null,
      f.errorsBox(),
      h('div', { class: 'form-grid' },
        f.field('Name', f.textInput('name', v, 'name', changed, { maxlength: '128', placeholder: 'e.g. prod 2.0' }), { field: 'name', class: 'full' }),
        f.field('Manifest', manifest, { field: 'manifestId', class: 'full', hint: 'What every component of the systems is taken to, in its orders.' }),
        ui.fleets === null ? null : f.field('Channel', f.selectInput('fleetId', [['', '— none: systems in any channel —'],
          ...ui.fleets.map(x => [String(x.id), x.name])], v, 'fleetId', changed), {
          field: 'fleetId', hint: 'Only systems whose devices are all in this channel.' }),
        f.field('Centres, in this order', groups, { field: 'groups', hint: [
          'Comma-separated. Empty: every centre, by name. ', chips] }),
        f.field('Systems', f.textInput('systems', v, 'systems', changed, { placeholder: 'e.g. lane-07, lane-08' }), {
          field: 'systems', hint: 'Only these systems, comma-separated. Empty: all in scope.' }),
        f.field('Systems at a time', num('maxParallel'), { field: 'maxParallel', hint: 'Systems under way at once (maxParallel).' }),
        f.field('Systems that may fail', num('maxFailed'), { field: 'maxFailed',
          hint: 'More failures than this and no new system is started (maxFailed).' }),
        f.checkField('One centre at a time', f.checkbox('byCentre', v, 'byCentre', changed), { field: 'byCentre',
          hint: 'The next centre starts when every system of the last one is done.' }),
        f.field('Soak (seconds)', num('soakSeconds', { placeholder: '0' }), { field: 'soakSeconds',
          hint: 'How long a system that finished is watched before it counts as updated. Empty: none.' }),
        f.field('Order timeout (seconds)', num('orderTimeoutSeconds', { placeholder: 'the service’s default' }), {
          field: 'orderTimeoutSeconds', hint: 'How long the devices of one order may take.' }),
        f.field('Verify timeout (seconds)', num('verifyTimeoutSeconds', { placeholder: '300' }), {
          field: 'verifyTimeoutSeconds', hint: 'How long a component’s verify query may take to hold.' })),
      windowsFieldset(),
      h('div', { class: 'dialog-buttons' },
        shared.button('Cancel', () => dialog.close(), { class: 'secondary', key: 'deployment-cancel' }),
        shared.button('Start over', () => { store.clear(); v = blank(); showForm(false); }, { class: 'secondary', key: 'deployment-start-over' }),
        h('button', { type: 'submit', class: 'primary', id: 'deployment-see-plan', text: 'See the plan' })));
    form.addEventListener('submit', e => { e.preventDefault(); seePlan(form); });
    document.getElementById('deployment-form-title').textContent = 'New deployment';
    body.replaceChildren(form);
  }

  function windowsFieldset() {
    const rows = h('div', {});
    const fill = () => rows.replaceChildren(...v.centreWindows.map((w, i) => h('div', { class: 'form-grid', 'data-centre-window': i },
      f.field('Centre', f.textInput(`window-centre-${i}`, w, 'centre', changed, { placeholder: 'e.g. c01' }), { class: 'centre' }),
      WINDOW_FIELDS.map(k => f.field(label(k), f.textInput(`window-${k}-${i}`, w, k, changed), { class: k })),
      h('div', { class: 'field' }, shared.button('Remove', () => { v.centreWindows.splice(i, 1); changed(); fill(); }, {
        class: 'secondary', ariaLabel: `Remove window ${i + 1}` })))));
    fill();
    return h('fieldset', { 'data-field': 'windows', class: 'field' },
      h('legend', { text: 'Windows (optional)' }),
      h('p', { class: 'field-error' }),
      h('p', { class: 'hint muted', text: 'When systems may start: a schedule (Quartz cron, e.g. 0 0 2 * * ?), how long the window stays open (hh:mm) and its time zone. Empty: any time.' }),
      h('div', { class: 'form-grid' }, WINDOW_FIELDS.map(k => f.field(`Every centre: ${label(k).toLowerCase()}`,
        f.textInput(`window-${k}`, v.window, k, changed, { placeholder: { schedule: '0 0 2 * * ?', duration: '03:00', timezone: 'Europe/Berlin' }[k] }),
        { field: `windows.default.${k}` }))),
      rows,
      shared.button('Add a centre’s own window', () => { v.centreWindows.push({ centre: '', schedule: '', duration: '', timezone: '' }); changed(); fill(); }, {
        class: 'secondary', key: 'deployment-add-window' }));
  }

  function label(k) {
    return { schedule: 'Schedule', duration: 'Duration', timezone: 'Time zone' }[k];
  }

  /** The request body: what is typed; optional fields only when filled in. */
  function build(form) {
    const b = { name: v.name.trim() };
    if (v.manifestId) b.manifestId = Number(v.manifestId);
    if (v.fleetId) b.fleetId = Number(v.fleetId);
    const groups = f.names(v.groups);
    if (groups.length) b.groups = groups;
    const systems = f.names(v.systems);
    if (systems.length) b.systems = systems;
    for (const k of ['maxParallel', 'maxFailed', 'orderTimeoutSeconds', 'soakSeconds', 'verifyTimeoutSeconds']) {
      const n = f.number(v[k]);
      if (n !== undefined) b[k] = n;
    }
    if (v.byCentre) b.byCentre = true;
    const windows = {};
    const filled = w => {
      const out = {};
      for (const k of WINDOW_FIELDS) if (String(w[k] || '').trim()) out[k] = w[k].trim();
      return Object.keys(out).length ? out : null;
    };
    const all = filled(v.window);
    if (all) windows.default = all;
    const centres = {};
    const clash = [];
    v.centreWindows.forEach((w, i) => {
      const row = form.querySelector(`[data-centre-window="${i}"]`);
      const c = String(w.centre || '').trim();
      const own = filled(w);
      const at = p => row.querySelector(`.field.${p}`);
      if (c && centres[c]) clash.push([at('centre'), `${c} has a window above already`]);
      else if (c || own) centres[c] = own || {};
      at('centre').setAttribute('data-field', `windows.centres.${c}`);
      for (const k of WINDOW_FIELDS) at(k).setAttribute('data-field', `windows.centres.${c}.${k}`);
    });
    if (Object.keys(centres).length) windows.centres = centres;
    if (Object.keys(windows).length) b.windows = windows;
    return { body: b, clash };
  }

  async function seePlan(form) {
    const { body: b, clash } = build(form);
    f.clearErrors(form);
    if (clash.length) {
      clash.forEach(([el, message]) => f.markField(el, message));
      f.summary(form, 'Not sent: see the fields marked below.');
      return;
    }
    const button = form.querySelector('#deployment-see-plan');
    button.disabled = true;
    try {
      const r = await api('POST', '/systemdeployments/plan', b);
      if (r.ok) {
        request = b;
        showPlan(r.data);
      } else {
        f.showProblem(form, r);
      }
    } finally {
      button.disabled = false;
    }
  }

  function showPlan(plan) {
    const m = manifestOf(request.manifestId);
    const settings = [`up to ${request.maxParallel ?? 1} at a time`, `${request.maxFailed ?? 0} may fail`,
      request.byCentre ? 'one centre at a time' : 'centres together',
      request.groups ? `centres ${request.groups.join(', ')}` : 'every centre',
      request.systems ? `only ${request.systems.join(', ')}` : null,
      request.soakSeconds ? `soak ${request.soakSeconds} s` : null].filter(Boolean).join(' · ');
    const view = h('div', { id: 'deployment-plan' },
      h('p', {}, h('strong', { text: `“${request.name}”` }), m ? ` — manifest ${m.name}` : null),
      h('p', { class: 'muted', text: settings }),
      f.errorsBox(),
      shared.planView(plan, 'The plan: nothing has been created yet.'),
      plan.systems.length ? null : h('p', { class: 'empty', text: 'No system is in scope: there is nothing to start. Change the scope (see above why).' }),
      h('div', { class: 'dialog-buttons' },
        shared.button('Change', () => showForm(false), { class: 'secondary', key: 'plan-change' }),
        shared.button('Keep as a draft', () => create(view, false), { class: 'secondary', key: 'plan-draft' }),
        shared.button('Start now', () => create(view, true), { key: 'plan-start' })));
    // the API refuses to start a deployment with nothing in scope: not offered
    if (!plan.systems.length) view.querySelector('[data-key=plan-start]').disabled = true;
    document.getElementById('deployment-form-title').textContent = 'New deployment: the plan';
    body.replaceChildren(view);
    view.querySelector(plan.systems.length ? '[data-key=plan-start]' : '[data-key=plan-change]').focus();
  }

  async function create(view, start) {
    for (const b of view.querySelectorAll('button')) b.disabled = true;
    const r = await api('POST', '/systemdeployments', request);
    if (!r.ok) {
      showForm(false);
      f.showProblem(body.querySelector('form'), r);
      return;
    }
    const d = r.data;
    store.clear();
    dialog.close();
    if (start) {
      const s = await api('POST', `/systemdeployments/${d.id}/start`);
      shared.notice(s.ok ? `Deployment “${d.name}” started.` : `Deployment “${d.name}” was created as a draft but not started: ${shared.problemText(s)}`, !s.ok);
    } else {
      shared.notice(`Deployment “${d.name}” created as a draft: nothing moves until it is started.`, false);
    }
    await shared.refresh().catch(() => {});
    shared.openDrawer(d.id);
  }
});
