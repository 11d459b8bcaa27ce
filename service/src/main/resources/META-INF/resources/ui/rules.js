/*
 * A type's compatibility rules on its card, in words, and "Edit rules…" for a user who may write: one block per rule
 * (if these components run these sets, then those must run those; why), sent with the rest of the type as it is
 * (PUT /qawk/v1/systemtypes/{id}). The API's field errors (rules[1].then.terminal, rules[0].why) are shown at the
 * rule's field they name, a refusal that is not about a field on top; the dialog stays open until it is accepted.
 */
import { ui, h, button, code, api, notice } from './core.js';
import { hook, refresh } from './registry.js';
import { field, showProblem, errorsBox, show } from './forms.js';
import { formDialog } from './dialogs.js';

/** "lane app:[2,)" for each component of one side of a rule. */
function sideWords(side) {
  return Object.entries(side || {}).map(([c, sets]) => `${c} ${sets}`).join(' and ');
}

/** One side as the editor shows it: a line per component, "component: sets". */
function sideText(side) {
  return Object.entries(side || {}).map(([c, sets]) => `${c}: ${sets}`).join('\n');
}

/** A side from the editor's text; a line without "component:" is sent as it is, so the API says what is wrong. */
function sideOf(text) {
  const out = {};
  for (const line of String(text || '').split('\n').map(x => x.trim()).filter(Boolean)) {
    const cut = line.indexOf(':');
    if (cut < 0) out[line] = '';
    else out[line.substring(0, cut).trim()] = line.substring(cut + 1).trim();
  }
  return out;
}

function rulesCard(t) {
  const rules = t.rules || [];
  return h('div', { class: 'rules', 'data-rules': t.id },
    h('h4', { text: rules.length ? `Rules (${rules.length})` : 'Rules' }),
    rules.length ? h('ol', {}, rules.map((r, i) => h('li', { 'data-rule': i },
      'if ', h('span', { class: 'set', text: sideWords(r.if) }), ' then ', h('span', { class: 'set', text: sideWords(r.then) }),
      h('span', { class: 'muted', text: ` — ${r.why}` }))))
      : h('p', { class: 'muted', text: 'None: any mix of sets is allowed.' }),
    ui.me.canWrite ? button('Edit rules…', () => editRules(t), { class: 'secondary', key: `type-rules-${t.id}`, ariaLabel: `Edit the rules of ${t.name}` }) : null);
}

function editRules(t) {
  const { dialog, body: where } = formDialog('rules-dialog', `Rules of ${t.name}`, true);
  const rows = (t.rules || []).map(r => ({ if: sideText(r.if), then: sideText(r.then), why: r.why || '' }));
  const form = h('form', { class: 'form', novalidate: true });
  const fill = () => {
    form.replaceChildren(errorsBox(),
      h('p', { class: 'muted' }, 'One line per component, ', code('component: sets'), ' (e.g. ',
        code(`${(t.components[0] || {}).componentType || 'lane'}: app:[2,)`), '). When the “if” components run those sets, every device of the “then” components must. ',
        'Components: ', t.components.map(c => c.componentType).join(', '), '.'),
      ...rows.map((r, i) => {
        const text = (key, label, multi) => {
          const el = h(multi ? 'textarea' : 'input', { name: `rules[${i}].${key}`, rows: multi ? 2 : null, autocomplete: 'off', spellcheck: 'false' });
          el.value = r[key];
          el.addEventListener('input', () => { r[key] = el.value; });
          return field(label, el, { field: `rules[${i}].${key}` });
        };
        return h('fieldset', { class: 'field rule', 'data-field': `rules[${i}]` },
          h('legend', { text: `Rule ${i + 1}` }), h('p', { class: 'field-error' }),
          text('if', 'If', true), text('then', 'then', true), text('why', 'Why (shown wherever the rule holds a system back)', false),
          button('Remove this rule', () => { rows.splice(i, 1); fill(); }, { class: 'secondary', key: `rule-remove-${i}` }));
      }),
      button('Add a rule', () => { rows.push({ if: '', then: '', why: '' }); fill(); }, { class: 'secondary', key: 'rule-add' }),
      h('div', { class: 'dialog-buttons' },
        button('Cancel', () => dialog.close(), { class: 'secondary', key: 'rules-cancel' }),
        h('button', { type: 'submit', class: 'primary', 'data-key': 'rules-save', text: 'Save the rules' })));
  };
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const body = {
      name: t.name, systemKey: t.systemKey, groupKey: t.groupKey, guard: t.guard,
      components: t.components.map(c => ({ componentType: c.componentType, match: c.match, health: c.health })),
      rules: rows.map(r => ({ if: sideOf(r.if), then: sideOf(r.then), why: r.why })),
    };
    const r = await api('PUT', `/systemtypes/${t.id}`, body);
    if (!r.ok) {
      showProblem(form, r);
      return;
    }
    dialog.close();
    notice(`Rules of ${t.name} saved: ${rows.length} rule(s).`, false);
    await refresh().catch(() => {});
  });
  fill();
  where.replaceChildren(form);
  show(dialog, form.querySelector('textarea, input'));
}

hook('typeCard', rulesCard);
