/*
 * The guard and mending on the screen (issue 40), an ES module added to app.js through its hooks (qawk.plugin).
 * - A system type's card says its guard mode (watch / hold) and lists the threats to its systems
 *   (GET /threats: hawkBit rollouts, auto-assignments and hand assignments outside Qawk that would move members):
 *   source, name, set, how many of its systems, what it would break, and what the guard did (watched / held).
 * - A system's view (its devices, opened from its row) lists the threats touching it and its holds
 *   (GET /threats/holds?systemTypeId=&system=) with their reasons; an admin may release a paused rollout or a
 *   switched-off auto-assignment (POST /threats/holds/{id}/release).
 * - A broken system's row offers "Mend…" to admins: POST /systemtypes/{id}/systems/{key}/mend creates a draft, whose
 *   plan the drawer shows with Start (as for any draft). Refusals (409) are shown in the API's words.
 * Data is only ever put into the page as text (shared.h), as everywhere on the screen.
 */
import { plugin } from './registry.js';

const SHOWN_ON_CARD = 5;

const SOURCE = { rollout: 'rollout', autoAssignment: 'auto-assignment', assignment: 'assignment by hand' };
const ACTION = { watched: ['watched', 'warn'], held: ['held', 'ok'], cancelled: ['cancelled', 'ok'] };
const HOLD = { paused: ['paused', 'warn'], denied: ['denied', 'muted'], switched_off: ['switched off', 'warn'], cancelled: ['cancelled', 'muted'] };
const RELEASABLE = new Set(['paused', 'switched_off']);

plugin(shared => {
  const { ui, h, button, code, api, pill, notice, problemText } = shared;
  const state = {
    threats: null,  // the last GET /threats: { total, content, lastPass } or { error }
    holds: {},      // "typeId/system" -> GET /threats/holds page or { error }
  };

  // --- loading (with the page's poll) --------------------------------------------------------------------------

  shared.hook('load', () => shared.get('/threats')
    .then(page => { state.threats = page; }, e => { state.threats = { error: e.message }; }));

  shared.hook('loadSystem', (typeId, system) => shared.get(`/threats/holds?systemTypeId=${typeId}&system=${encodeURIComponent(system)}`)
    .then(page => { state.holds[`${typeId}/${system}`] = page; }, e => { state.holds[`${typeId}/${system}`] = { error: e.message }; }));

  shared.hook('typesKey', () => [state.threats, state.holds]);

  /** The threats with systems of this type, each with only those systems. */
  function threatsOf(typeId) {
    if (!state.threats || state.threats.error) return [];
    return state.threats.content
      .map(t => Object.assign({}, t, { systems: t.systems.filter(s => s.systemTypeId === typeId) }))
      .filter(t => t.systems.length);
  }

  function threatsTouching(typeId, system) {
    return threatsOf(typeId).map(t => Object.assign({}, t, { systems: t.systems.filter(s => s.system === system) }))
      .filter(t => t.systems.length);
  }

  const sourceWord = s => SOURCE[s] || shared.lower(s);
  const setWord = ds => (ds && (ds.name || (ds.id !== null && ds.id !== undefined ? `#${ds.id}` : ''))) || '—';

  /** What the threat would break on these systems: the rule's reason of the first, and how many break one. */
  function breaksWords(t) {
    const broken = t.systems.filter(s => s.breaks);
    if (!broken.length) return h('span', { class: 'muted', 'data-threat-breaks': '', text: 'breaks no rule' });
    // each system's reason names its own devices: say how many more break the same rule (all of them in the tooltip)
    const rules = new Set(broken.map(s => s.breaks.rule));
    const more = broken.length - 1;
    return h('div', { class: 'reason bad', 'data-threat-breaks': '', title: broken.map(s => `${s.system}: ${s.breaks.reason}`).join('\n') },
      t.systems.length > 1 ? h('strong', { text: `breaks ${broken.length} of them: ` }) : null,
      broken[0].breaks.reason,
      more ? h('span', { class: 'muted', text: rules.size === 1 ? ` (and ${more} more alike)` : ` (and ${more} more, ${rules.size} different rules)` }) : null);
  }

  function threatLine(t, systemsWord) {
    return h('li', { 'data-threat': `${t.source}-${t.hawkbitId}` },
      pill(ACTION, t.action), ' ',
      h('span', { class: 'muted', 'data-threat-source': '', text: sourceWord(t.source) }), ' ',
      h('strong', { 'data-threat-name': '', text: t.name }),
      t.status ? h('span', { class: 'muted', text: ` (${t.status})` }) : null,
      ' → ', h('span', { class: 'set', 'data-threat-set': '', text: setWord(t.distributionSet) }),
      systemsWord ? [' · ', h('span', { 'data-threat-systems': '', text: systemsWord }, )] : null,
      breaksWords(t));
  }

  // --- the type's card -----------------------------------------------------------------------------------------

  shared.hook('typeFacts', t => {
    const mode = t.guard || 'watch';
    return [h('dt', { text: 'Guard' }), h('dd', {},
      h('span', { class: 'pill st-' + (mode === 'hold' ? 'ok' : 'muted'), 'data-guard-mode': t.id, text: mode }),
      h('span', { class: 'muted', text: mode === 'hold'
        ? ' stops hawkBit work outside Qawk that would break a rule or leave a system mixed'
        : ' lists hawkBit work outside Qawk that would move its systems, and stops nothing' }))];
  });

  shared.hook('typeCard', t => {
    if (!state.threats) return null;
    if (state.threats.error) return h('p', { class: 'muted', 'data-threats': t.id, text: `Threats: ${state.threats.error}` });
    const list = threatsOf(t.id);
    const last = state.threats.lastPass;
    const lastWords = last && last.at ? [h('span', { class: 'muted', text: ` · looked ${shared.fmtTime(last.at)}` }),
      last.error ? h('span', { class: 'bad', text: ` · ${last.error}` }) : null] : null;
    if (!list.length) {
      return h('div', { class: 'threats', 'data-threats': t.id },
        h('p', { class: 'muted' }, 'No hawkBit work outside Qawk would move its systems', lastWords));
    }
    const n = list.length;
    return h('div', { class: 'threats', 'data-threats': t.id },
      h('p', {}, h('span', { class: 'pill st-warn', 'data-threat-count': n, text: `${n} threat${n === 1 ? '' : 's'}` }),
        ' from hawkBit outside Qawk', lastWords),
      h('ul', { class: 'threat-list' }, list.slice(0, SHOWN_ON_CARD).map(x =>
        threatLine(x, `${x.systems.length} system${x.systems.length === 1 ? '' : 's'}`))),
      n > SHOWN_ON_CARD ? h('p', { class: 'muted' }, `and ${n - SHOWN_ON_CARD} more: `, code(`GET /qawk/v1/threats?systemTypeId=${t.id}`)) : null);
  });

  // --- a system's row and view ---------------------------------------------------------------------------------

  shared.hook('systemActions', (t, s) => {
    const out = [];
    const n = threatsTouching(t.id, s.system).length;
    if (n) out.push(' ', h('span', { class: 'pill st-warn', 'data-threatened': s.system, text: `${n} threat${n === 1 ? '' : 's'}` }));
    if (s.broken && ui.me.canWrite) {
      out.push(' ', button('Mend…', () => mend(t, s), { key: `sys-mend-${t.id}/${s.system}`, ariaLabel: `Mend ${s.system}` }));
    }
    return out;
  });

  shared.hook('systemDetail', (t, s) => {
    const threats = threatsTouching(t.id, s.system);
    const holds = state.holds[`${t.id}/${s.system}`];
    return h('div', { class: 'guard-view', 'data-system-guard': s.system },
      h('h4', { text: 'Threats from hawkBit outside Qawk' }),
      threats.length
        ? h('ul', { class: 'threat-list' }, threats.map(x => [threatLine(x, null),
          h('li', { class: 'muted would-run' }, `${s.system} would then run `, shared.versionsWords(x.systems[0].wouldRun) || '—')]))
        : h('p', { class: 'muted', 'data-no-threats': '', text: 'None: no rollout, auto-assignment or assignment in hawkBit would move its devices.' }),
      h('h4', { text: 'Holds' }),
      holdList(t, s, holds));
  });

  function holdList(t, s, page) {
    if (!page) return h('p', { class: 'muted', text: 'Loading…' });
    if (page.error) return h('p', { class: 'muted', text: page.error });
    if (!page.content.length) return h('p', { class: 'muted', 'data-no-holds': '', text: 'The guard has stopped nothing for this system.' });
    return h('ul', { class: 'holds' }, page.content.map(x => h('li', { 'data-hold': x.id },
      pill(HOLD, x.what), ' ', h('span', { class: 'muted', text: sourceWord(x.source) }), ' ', h('strong', { text: x.name }),
      x.device ? [' on ', h('span', { class: 'mono', text: x.device })] : null,
      ' → ', h('span', { class: 'set', text: setWord(x.distributionSet) }),
      h('span', { class: 'muted', text: ` · held ${shared.fmtTime(x.heldAt)}` }),
      h('div', { class: 'reason', 'data-hold-reason': '', text: x.reason }),
      x.releasedAt
        ? h('div', { class: 'muted', 'data-released': '', text: `released by ${x.releasedBy || '?'} ${shared.fmtTime(x.releasedAt)}` })
        : ui.me.canWrite && RELEASABLE.has(x.what)
          ? button('Release…', () => release(x), { key: `hold-release-${x.id}`, class: 'secondary', ariaLabel: `Release the hold on ${x.name}` })
          : null)));
  }

  // --- the commands --------------------------------------------------------------------------------------------

  function release(x) {
    const what = x.what === 'paused'
      ? ['hawkBit resumes the rollout ', h('strong', { text: x.name }), ': its devices get ', h('span', { class: 'set', text: setWord(x.distributionSet) }), '.']
      : ['The target filter ', h('strong', { text: x.name }), ' gets its set ', h('span', { class: 'set', text: setWord(x.distributionSet) }),
        ' again: hawkBit assigns it to every device its query matches.'];
    return shared.confirmThen({
      title: `Release the hold on ${x.name}?`,
      body: [h('p', {}, what),
        h('p', {}, 'The guard held it because: ', h('span', { class: 'reason bad', text: x.reason })),
        h('p', { class: 'muted', text: 'From then on the guard leaves this hawkBit object alone.' })],
      confirm: 'Release the hold', danger: true,
    }, () => shared.act('POST', `/threats/holds/${x.id}/release`, undefined, r => `Hold on ${r.name} released by ${r.releasedBy}.`));
  }

  function mend(t, s) {
    return shared.confirmThen({
      title: `Mend ${s.system}?`,
      body: [h('p', {}, h('strong', { text: s.system }), ' breaks a rule of ', h('strong', { text: t.name }), ': ',
        h('span', { class: 'reason bad', text: s.broken.reason })),
      h('p', { text: 'This creates a draft deployment of this system alone, with the manifest that brings it back to a mix its rules allow '
          + '(the one it last ran, else the nearest that mends it). Nothing moves until you start it: the drawer shows its plan first.' })],
      confirm: 'Create the draft',
    }, async () => {
      const r = await api('POST', `/systemtypes/${t.id}/systems/${encodeURIComponent(s.system)}/mend`);
      if (!r.ok) {
        notice(`${s.system} cannot be mended: ${problemText(r)}`, true);
        return;
      }
      notice(`Draft “${r.data.name}” created with manifest “${r.data.manifestName}”: nothing has moved. Start it from its plan.`, false);
      await shared.refresh().catch(() => {});
      shared.openDrawer(r.data.id);
    });
  }
});
