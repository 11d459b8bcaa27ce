/*
 * "New manifest": a system type, and per component in it a distribution set (hawkBit's, found by name:version through
 * GET /distributionsets) and an order, optionally a verify query; or a Mender manifest pasted as YAML
 * (POST /manifests/import). The API's field errors are shown at their fields. What is typed is kept (localStorage)
 * until the manifest is created or "Start over" is pressed. A component left unticked is not in the manifest.
 */
import { plugin } from './registry.js';
plugin(shared => {
  if (!shared.ui.me.canWrite) return;
  const { h, ui, api } = shared;
  const f = shared.forms;
  const dialog = document.getElementById('manifest-form-dialog');
  const body = document.getElementById('manifest-form-body');
  const store = f.draft('manifest');
  const known = new Map(); // label (name:version) -> set, of every answer seen
  let v = null;

  document.getElementById('manifests-actions').append(
    shared.button('New manifest…', open, { key: 'new-manifest', ariaLabel: 'New manifest' }));

  function blank() {
    return { mode: 'form', name: '', systemTypeId: '', rows: {}, yaml: '' };
  }

  function open() {
    const kept = store.load();
    v = Object.assign(blank(), kept || {});
    show(!!kept);
    f.show(dialog, body.querySelector('[name=name], [name=yaml]'));
    suggest('');
  }

  function changed() {
    store.save(v);
  }

  function show(restored) {
    const tab = (mode, text) => h('button', { type: 'button', 'aria-pressed': String(v.mode === mode), 'data-key': `manifest-mode-${mode}`,
      onclick: () => { v.mode = mode; changed(); show(false); } }, text);
    const content = v.mode === 'yaml' ? yamlForm() : fieldsForm();
    body.replaceChildren(...[
      h('div', { class: 'tabs', role: 'group', 'aria-label': 'How to write it' }, tab('form', 'Fill in'), tab('yaml', 'Paste Mender YAML')),
      restored ? h('p', { class: 'note restored', text: 'What you entered last time is back. “Start over” empties the form.' }) : null,
      content].filter(Boolean));
  }

  function buttons(submitText) {
    return h('div', { class: 'dialog-buttons' },
      shared.button('Cancel', () => dialog.close(), { class: 'secondary', key: 'manifest-cancel' }),
      shared.button('Start over', () => { store.clear(); v = Object.assign(blank(), { mode: v.mode }); show(false); }, {
        class: 'secondary', key: 'manifest-start-over' }),
      h('button', { type: 'submit', class: 'primary', id: 'manifest-submit', text: submitText }));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Filled in

  function fieldsForm() {
    const types = [['', ui.types.length ? '— choose a system type —' : '— no system types yet —'],
      ...ui.types.map(t => [String(t.id), t.name])];
    const rows = h('tbody', {});
    const type = f.selectInput('systemTypeId', types, v, 'systemTypeId', () => { changed(); fillRows(rows); });
    const datalist = h('datalist', { id: 'manifest-set-options' });
    const form = h('form', { id: 'manifest-form', novalidate: true },
      f.errorsBox(),
      h('div', { class: 'form-grid' },
        f.field('Name', f.textInput('name', v, 'name', changed, { maxlength: '128', placeholder: 'e.g. device-system-2.0' }), { field: 'name' }),
        f.field('System type', type, { field: 'systemTypeId' })),
      h('fieldset', { class: 'field', 'data-field': 'components' },
        h('legend', { text: 'Components' }),
        h('p', { class: 'field-error' }),
        h('p', { class: 'hint muted' }, 'Per component a distribution set of hawkBit (', h('code', { text: 'name:version' }),
          ', or a name alone for its newest) and an order from 1 to 1000: lower goes first, equal orders go together. ',
          'The verify query (optional) is what the component’s devices must report afterwards.'),
        h('p', { class: 'hint muted', id: 'manifest-sets-status', 'aria-live': 'polite' }),
        h('div', { class: 'table-wrap', tabindex: '0', role: 'group', 'aria-label': 'Components of the manifest' }, h('table', { class: 'rows' },
          h('thead', {}, h('tr', {}, ['Use', 'Component', 'Distribution set', 'Order', 'Verify (optional)'].map(t => h('th', { scope: 'col', text: t })))),
          rows)),
        datalist),
      buttons('Create manifest'));
    fillRows(rows);
    form.addEventListener('submit', e => { e.preventDefault(); createFromFields(form); });
    return form;
  }

  function typeOf(id) {
    return ui.types.find(t => String(t.id) === String(id)) || null;
  }

  function fillRows(rows) {
    const t = typeOf(v.systemTypeId);
    if (!t) {
      rows.replaceChildren(h('tr', {}, h('td', { colspan: 5, class: 'muted', text: 'Choose a system type: its components are listed here.' })));
      return;
    }
    rows.replaceChildren(...t.components.map(c => {
      const ct = c.componentType;
      const row = v.rows[ct] || (v.rows[ct] = { include: true, set: '', order: '', verify: '' });
      const set = f.textInput(`set-${ct}`, row, 'set', changed, { list: 'manifest-set-options', placeholder: 'name:version' });
      set.addEventListener('input', () => later(set.value));
      set.addEventListener('focus', () => suggest(set.value));
      return h('tr', { 'data-component': ct },
        h('td', {}, f.checkField(h('span', { class: 'sr-only', text: `${ct} in the manifest` }),
          f.checkbox(`include-${ct}`, row, 'include', changed), { class: 'include' })),
        h('td', {}, h('strong', { text: ct }), h('div', {}, h('code', { class: 'muted', text: c.match }))),
        h('td', {}, f.field(`Set of ${ct}`, set, { class: 'set' })),
        h('td', {}, f.field(`Order of ${ct}`, f.textInput(`order-${ct}`, row, 'order', changed, { inputmode: 'numeric', placeholder: '1', size: '5' }), { class: 'order' })),
        h('td', {}, f.field(`Verify of ${ct}`, f.textInput(`verify-${ct}`, row, 'verify', changed, { placeholder: 'e.g. attribute.app_version==2.0' }), { class: 'verify' })));
    }));
    // the row says which component; the fields' labels stay for screen readers only
    for (const l of rows.querySelectorAll('.field:not(.check) > label')) l.classList.add('sr-only');
  }

  const later = f.debounce(text => suggest(text), 250);

  function remember(sets) {
    for (const s of sets) known.set(s.label, s);
  }

  /** The sets whose name contains what is typed (before its ':'), offered in the set fields. */
  async function suggest(text) {
    const name = String(text || '').split(':')[0].trim();
    const r = await api('GET', `/distributionsets?limit=100${name ? `&q=${encodeURIComponent(name)}` : ''}`);
    const status = document.getElementById('manifest-sets-status');
    const list = document.getElementById('manifest-set-options');
    if (!status || !list) return;
    if (!r.ok) {
      status.textContent = `hawkBit’s sets cannot be listed right now (${shared.problemText(r)}); type name:version.`;
      return;
    }
    remember(r.data.content);
    list.replaceChildren(...r.data.content.map(s => h('option', { value: s.label, label: s.complete ? s.label : `${s.label} (incomplete: cannot be assigned)` })));
    status.textContent = r.data.total > r.data.content.length
      ? `Offering the first ${r.data.content.length} of ${r.data.total} sets${name ? ` named like “${name}”` : ''}: type more of a name to narrow it.`
      : `${r.data.total} set(s) of hawkBit${name ? ` named like “${name}”` : ''} offered.`;
  }

  /** A typed set: name:version exactly, or a name alone for its newest set; null when hawkBit has none. */
  async function resolve(text) {
    const t = text.trim();
    const colon = t.indexOf(':');
    const name = colon < 0 ? t : t.substring(0, colon);
    const pick = () => colon < 0 || colon === t.length - 1
      ? [...known.values()].filter(s => s.name === name).sort((a, b) => b.id - a.id)[0] || null
      : known.get(t) || null;
    if (colon > 0 && known.has(t)) return known.get(t);
    const r = await api('GET', `/distributionsets?limit=500&q=${encodeURIComponent(name)}`);
    if (!r.ok) throw new Error(shared.problemText(r));
    remember(r.data.content);
    return pick();
  }

  async function createFromFields(form) {
    f.clearErrors(form);
    const t = typeOf(v.systemTypeId);
    const b = { name: v.name.trim() };
    if (v.systemTypeId) b.systemTypeId = Number(v.systemTypeId);
    const unknown = [];
    const button = form.querySelector('#manifest-submit');
    button.disabled = true;
    try {
      if (t) {
        b.components = [];
        for (const c of t.components) {
          const row = v.rows[c.componentType];
          const tr = form.querySelector(`tr[data-component="${CSS.escape(c.componentType)}"]`);
          const cells = ['include', 'set', 'order', 'verify'].map(k => tr.querySelector(`.field.${k}`));
          cells.forEach(el => el.removeAttribute('data-field'));
          if (!row || !row.include) continue;
          const at = `components[${b.components.length}]`;
          const [include, set, order, verify] = cells;
          include.setAttribute('data-field', at);
          set.setAttribute('data-field', `${at}.distributionSetId`);
          order.setAttribute('data-field', `${at}.order`);
          verify.setAttribute('data-field', `${at}.verify`);
          const component = { componentType: c.componentType };
          if (row.set.trim()) {
            const found = await resolve(row.set);
            if (found) component.distributionSetId = found.id;
            else unknown.push([set, `hawkBit has no distribution set “${row.set.trim()}”: pick one from the list (name:version)`]);
          }
          const n = f.number(row.order);
          if (n !== undefined) component.order = n;
          if (String(row.verify || '').trim()) component.verify = row.verify.trim();
          b.components.push(component);
        }
      }
      if (unknown.length) {
        unknown.forEach(([el, message]) => f.markField(el, message));
        f.summary(form, 'Not sent: see the fields marked below.');
        return;
      }
      const r = await api('POST', '/manifests', b);
      if (r.ok) {
        done(`Manifest “${r.data.name}” created.`);
      } else {
        f.showProblem(form, r);
      }
    } catch (e) {
      f.summary(form, `Not sent: ${e.message}`);
    } finally {
      button.disabled = false;
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Pasted YAML

  function yamlForm() {
    const text = h('textarea', { name: 'yaml', spellcheck: 'false', placeholder: [
      'api_version: mender/v1', 'kind: manifest', 'name: device-system-2.0', 'system_types_compatible:', '  - device-system',
      'component_types:', '  device2:', '    artifact_name: device2-fw:2.0', '    update_strategy: { order: 1 }',
      '  device1:', '    artifact_name: app:2.0', '    update_strategy: { order: 2 }'].join('\n') });
    text.value = v.yaml || '';
    text.addEventListener('input', () => { v.yaml = text.value; changed(); });
    const form = h('form', { id: 'manifest-yaml-form', novalidate: true },
      f.errorsBox(),
      f.field('Mender manifest (YAML)', text, { field: 'yaml', class: 'full', hint: [
        'As ', h('code', { text: 'POST /qawk/v1/manifests/import' }), ' takes it: ', h('code', { text: 'artifact_name' }),
        ' is a distribution set (name:version, or a name for its newest). A manifest of the same name is replaced by it.'] }),
      buttons('Import'));
    form.addEventListener('submit', async e => {
      e.preventDefault();
      f.clearErrors(form);
      const r = await api('POST', '/manifests/import', v.yaml || '', 'application/yaml');
      // the errors of a YAML document are shown at the document, each with its path in it
      const errors = r.status === 400 && r.data && Array.isArray(r.data.errors) ? r.data.errors : [];
      if (errors.length) {
        const el = f.locate(form, 'yaml');
        errors.forEach(x => f.markField(el, x.field ? `${x.field}: ${x.message}` : x.message));
        f.summary(form, `Not accepted: ${r.data.detail || 'see below the document'}.`);
        text.focus();
        return;
      }
      if (!r.ok) {
        f.showProblem(form, r);
        return;
      }
      const res = r.data;
      const ignored = res.ignored && res.ignored.length ? ` Keys that mean nothing to Qawk were ignored: ${res.ignored.join(', ')}.` : '';
      done(`Manifest “${res.name}” ${res.result} from YAML.${ignored}`);
    });
    return form;
  }

  async function done(words) {
    store.clear();
    dialog.close();
    shared.notice(words, false);
    await shared.refresh().catch(() => {});
  }
});
