/*
 * Channels from the screen, for a user who may write: "New channel…" (POST /qawk/v1/fleets: a name, the query that
 * finds its members, the channel it promotes to) and, per channel, "Set a release…" (PUT /qawk/v1/fleets/{id}: a set
 * for its standalone devices and/or a manifest for its systems). Resume and promote are on the channel's row
 * (channels.js). The API's field errors are shown at their field, other refusals on top; the dialog stays open.
 */
import { ui, h, button, api, notice } from './core.js';
import { hook, view, refresh } from './registry.js';
import { field, showProblem, errorsBox, show, markField, locate, clearErrors } from './forms.js';
import { formDialog } from './dialogs.js';

function input(name, value) {
  const el = h('input', { type: 'text', name, autocomplete: 'off', spellcheck: 'false' });
  el.value = value || '';
  return el;
}

function select(name, options, value) {
  const el = h('select', { name }, options.map(([v, text]) => h('option', { value: v, text })));
  el.value = value || '';
  return el;
}

function buttons(dialog, key, text) {
  return h('div', { class: 'dialog-buttons' },
    button('Cancel', () => dialog.close(), { class: 'secondary', key: `${key}-cancel` }),
    h('button', { type: 'submit', class: 'primary', 'data-key': `${key}-confirm`, text }));
}

/** Sends the form's request; on a refusal keeps the dialog open with the errors at their fields. */
function onSubmit(form, dialog, send, done) {
  form.addEventListener('submit', async e => {
    e.preventDefault();
    clearErrors(form);
    const r = await send();
    if (!r) return;
    if (!r.ok) {
      showProblem(form, r);
      return;
    }
    dialog.close();
    notice(done(r.data), false);
    await refresh().catch(() => {});
  });
}

function newChannel() {
  const { dialog, body } = formDialog('channel-form-dialog', 'New channel');
  const name = input('name');
  const match = input('match');
  const promotesTo = select('promotesTo', [['', 'none (the last channel of its pipeline)'],
    ...(ui.fleets || []).map(f => [String(f.id), f.name])]);
  const form = h('form', { class: 'form', novalidate: true }, errorsBox(),
    field('Name', name, { field: 'name' }),
    field('Members: the hawkBit query that finds its devices', match, { field: 'match', hint: 'e.g. attribute.channel==beta' }),
    field('Promotes to', promotesTo, { field: 'promotesTo' }),
    buttons(dialog, 'channel-create', 'Create the channel'));
  onSubmit(form, dialog, () => api('POST', '/fleets', {
    name: name.value.trim(), match: match.value.trim(), promotesTo: promotesTo.value ? Number(promotesTo.value) : undefined,
  }), f => `Channel “${f.name}” created: it has no release yet.`);
  body.replaceChildren(form);
  show(dialog, name);
}

/** The set an operator typed (name:version, or a name alone: its newest set), asked of hawkBit; null when none. */
async function setOf(text) {
  const t = text.trim();
  const cut = t.indexOf(':');
  const name = cut < 0 ? t : t.substring(0, cut);
  const r = await api('GET', `/distributionsets?limit=500&q=${encodeURIComponent(name)}`);
  if (!r.ok) return { problem: r };
  const sets = r.data.content.filter(s => s.name === name);
  return { set: cut < 0 || cut === t.length - 1 ? sets[0] : sets.find(s => s.label === t) };
}

function setRelease(f) {
  const { dialog, body } = formDialog('release-form-dialog', `Set a release of ${f.name}`);
  const set = input('distributionSetId');
  set.placeholder = 'name:version, or a name alone for its newest set';
  const manifest = select('manifestId', [['', 'none (the set only)'], ...ui.manifests.map(m => [String(m.id), m.name])]);
  const form = h('form', { class: 'form', novalidate: true }, errorsBox(),
    h('p', { class: 'muted', text: 'A release is one distribution set for the channel’s standalone devices and/or a manifest its systems are taken to (a deployment the channel starts). Give one or both.' }),
    field('Set for the standalone devices', set, { field: 'distributionSetId' }),
    field('Manifest for its systems', manifest, { field: 'manifestId' }),
    buttons(dialog, 'release', 'Release'));
  onSubmit(form, dialog, async () => {
    const request = {};
    if (set.value.trim()) {
      const found = await setOf(set.value);
      if (found.problem) return found.problem;
      if (!found.set) {
        markField(locate(form, 'distributionSetId'), `hawkBit has no set ${set.value.trim()}`).focus();
        return null;
      }
      request.distributionSetId = found.set.id;
    }
    if (manifest.value) request.manifestId = Number(manifest.value);
    return api('PUT', `/fleets/${f.id}`, request);
  }, () => `New release of ${f.name}: it goes out now.`);
  body.replaceChildren(form);
  show(dialog, set);
}

hook('channelActions', f => (ui.me.canWrite
  ? button('Set a release…', () => setRelease(f), { class: 'secondary', key: `fleet-release-${f.id}`, ariaLabel: `Set a release of ${f.name}` })
  : null));

view({
  name: 'channel-forms',
  start: () => {
    if (!ui.me.canWrite) return;
    document.getElementById('channels-actions').append(button('New channel…', newChannel, { key: 'new-channel', ariaLabel: 'New channel' }));
  },
  render: () => {},
});
