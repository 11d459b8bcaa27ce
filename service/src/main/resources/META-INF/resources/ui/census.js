/*
 * The census of a type in words a newcomer can act on: what its systems run, mix by mix — on a manifest; keeping the
 * rules though no manifest names the mix; breaking a rule — and "Save as a manifest" for a mix no manifest names
 * (POST /qawk/v1/manifests/from-census), the first thing a team adopting Qawk on a running fleet does.
 */
import { ui, h, button, api, notice, scroller, headers } from './core.js';
import { refresh } from './registry.js';
import { field, showProblem, errorsBox, show } from './forms.js';
import { formDialog } from './dialogs.js';

/** Each component's sets, e.g. "lane app:2 · terminal term:1, term:2" (nothing: a device that runs nothing). */
export function versionsWords(versions) {
  return Object.entries(versions || {})
    .map(([c, sets]) => `${c} ${sets.map(x => x === null ? 'nothing' : x).join(', ')}`).join(' · ');
}

/**
 * A configuration id (issue 42: a digest of the sets a mix runs, the same for every system on it and at every sync),
 * short and monospace so it can be quoted; a click selects all of it for copying.
 */
export function configurationId(id) {
  if (!id) return h('span', { class: 'muted', text: '—' });
  return h('code', { class: 'config-id', 'data-configuration-id': id, text: id,
    title: 'Configuration id: a digest of the sets each component runs, the same for every system on this mix and at'
      + ' every sync. Quote it as the configuration a system runs (or was approved to run).' });
}

/** What is known of a mix no manifest names: it keeps the type's rules (when it has any), and nothing more. */
function unnamed(t) {
  return t && t.rules && t.rules.length ? 'keep the rules, no manifest names their mix' : 'on a mix no manifest names';
}

/** The rule a mix breaks, as a person counts (rules[0] is rule 1), with the API's path. */
function ruleWords(b) {
  return `breaks rule ${b.rule + 1} (rules[${b.rule}])`;
}

/**
 * The census of a type: one bar segment per kind of mix (on a manifest; keeping the rules though no manifest names
 * it; breaking a rule) and its words; then, when some mix no manifest names, what to do about it.
 */
export function censusBar(c, t) {
  if (!c || c.error || !c.systems) return null;
  const parts = [];
  let untested = 0;
  for (const m of c.content) {
    if (m.broken) continue;
    if (m.manifests.length) {
      const first = m.manifests[0];
      parts.push([`on ${first.name}${first.revision ? ` rev ${first.revision}` : ''}`, m.systems, 'seg-updated']);
    } else {
      untested += m.systems;
    }
  }
  if (untested) parts.push([unnamed(t), untested, 'seg-pending']);
  if (c.broken) parts.push(['breaking a rule', c.broken, 'seg-rolledback']);
  const label = parts.map(p => `${p[1]} ${p[0]}`).join(', ');
  const bar = h('div', { class: 'bar', role: 'img', 'aria-label': label, title: label });
  for (const [name, n, cls] of parts) {
    const seg = h('span', { class: cls, 'data-share': name, 'data-count': n, title: `${n} ${name}` });
    seg.style.width = `${(100 * n / c.systems).toFixed(2)}%`;
    bar.append(seg);
  }
  return [h('div', { class: 'progress', 'data-census': '' }, bar, h('span', { class: 'words', text: label })),
    untested ? h('p', { class: 'muted', 'data-census-hint': '', text: `No manifest names what ${untested} of them run`
      + (ui.me.canWrite ? ': under “What they run”, save a mix as a manifest (a baseline) and they are on it.'
        : ': an operator who may write can save it as a manifest under “What they run”.') }) : null];
}

/** A mix that can be a manifest: none names it, it breaks no rule, and each component's devices agree on a set. */
function savable(m) {
  return !m.manifests.length && !m.broken
    && Object.values(m.versions || {}).every(sets => sets.length === 1)
    && Object.values(m.versions || {}).some(sets => sets[0] !== null);
}

/** "What they run": each mix, how many systems, what is known of it, and "Save as a manifest…" where it can be one. */
export function censusList(c, t) {
  if (!c) return h('p', { class: 'muted', text: 'Loading…' });
  if (c.error) return h('p', { class: 'muted', text: c.error });
  return scroller(`What the systems of ${t ? t.name : 'this type'} run`, h('table', { 'data-census-list': '', class: 'census' },
    headers(['Systems', 'They run', 'Configuration id', 'What is known', '']),
    h('tbody', {}, c.content.map((m, i) => h('tr', { 'data-mix': i },
      h('td', { class: 'num', text: m.systems }),
      h('td', { text: versionsWords(m.versions) }),
      h('td', {}, configurationId(m.configurationId)),
      h('td', { 'data-known': '' }, m.broken ? h('span', { class: 'bad', text: `${ruleWords(m.broken)}: ${m.broken.reason}` })
        : m.manifests.length ? `on manifest ${m.manifests.map(x => `${x.name}${x.revision ? ` rev ${x.revision}` : ''}`).join(', ')}`
          : t && t.rules && t.rules.length ? 'keeps the rules, but no manifest names it'
            : 'no manifest names it (the type has no rules to check it against)'),
      h('td', { class: 'actions' }, ui.me.canWrite && t && savable(m)
        ? button('Save as a manifest…', () => saveAsManifest(t, m), { key: `census-save-${t.id}-${i}`, ariaLabel: `Save what ${m.systems} system(s) run as a manifest` })
        : null))))));
}

/** Saves a mix as a manifest (POST /manifests/from-census); a refusal stays in the dialog, at the name when it is about it. */
function saveAsManifest(t, m) {
  const { dialog, body } = formDialog('census-save-dialog', 'Save what they run as a manifest');
  const name = h('input', { type: 'text', name: 'name', autocomplete: 'off', spellcheck: 'false', value: `${t.name} baseline` });
  name.value = `${t.name} baseline`;
  const form = h('form', { class: 'form', novalidate: true },
    errorsBox(),
    h('p', {}, `${m.systems} system(s) of ${t.name} run `, h('span', { class: 'set', text: versionsWords(m.versions) }),
      ', and no manifest names that mix yet.'),
    h('p', { text: 'Saved as a manifest (a baseline), it is named: these systems then read “on” it, and a deployment or a mend can take '
      + 'others to it. Nothing is assigned to any device: a manifest only names sets.' }),
    h('p', { class: 'muted', text: t.rules && t.rules.length ? 'Orders: what the type’s rules imply.'
      : 'Orders: every component at order 1 (together); change them later with PUT /qawk/v1/manifests/{id}.' }),
    field('Name of the manifest', name, { field: 'name' }),
    h('div', { class: 'dialog-buttons' },
      button('Cancel', () => dialog.close(), { class: 'secondary', key: 'census-save-cancel' }),
      h('button', { type: 'submit', class: 'primary', 'data-key': 'census-save-confirm', text: 'Save as a manifest' })));
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const r = await api('POST', '/manifests/from-census', { name: name.value.trim(), systemTypeId: t.id, versions: m.versions });
    if (!r.ok) {
      showProblem(form, r);
      return;
    }
    dialog.close();
    notice(`Manifest “${r.data.name}” saved: the ${m.systems} system(s) running that mix are on it.`, false);
    await refresh().catch(() => {});
  });
  body.replaceChildren(form);
  show(dialog, name);
}
