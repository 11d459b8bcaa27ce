/*
 * A system's actions in the drawer that ask first: take it again (what happens, and what to do instead when the
 * manifest itself was wrong) and roll it back by hand (a reason is required).
 */
import { ui, h, lower, act } from './core.js';
import { openDialog } from './dialogs.js';

/** Asks, then takes {@code r} again; {@code reload} shows the deployment again afterwards (the drawer's). */
export async function takeAgain(d, r, reload) {
  const dialog = document.getElementById('take-again-dialog');
  const manifest = d.manifestName || `#${d.manifestId}`;
  document.getElementById('take-again-title').textContent = `Take ${r.system} again?`;
  document.getElementById('take-again-what').replaceChildren(
    h('p', {}, 'This gives ', h('strong', { text: r.system }), ' another go within deployment ',
      h('strong', { text: `“${d.name}”` }), ', with ', h('strong', { text: 'this deployment’s manifest' }), ' ',
      h('span', { class: 'set', text: manifest }),
      d.manifestRevision !== null && d.manifestRevision !== undefined ? ` as it was when the deployment started (revision ${d.manifestRevision})` : null,
      ' — not whatever its channel has moved on to since', d.manifestChangedSince ? ', nor the edit made to the manifest since' : null, '.'),
    h('ul', {},
      h('li', {}, h('strong', { text: 'From where the system is now: ' }),
        'before anything moves it is photographed afresh — its devices and the set each runs now are recorded again. ',
        'If it rolls back a second time, it goes back to where it is now, not to where it was before the first attempt.'),
      h('li', { text: 'The system goes back to pending (attempt ' + (r.attempt + 1) + ') and no longer counts as failed; '
        + 'if the deployment had finished or failed, it runs again for this system.' }),
      d.fleetId !== null && d.fleetId !== undefined
        ? h('li', { text: 'If the channel’s release was halted, it stays halted: resume it under Channels as well — a separate decision.' })
        : null),
    r.reason ? h('p', { class: 'muted' }, 'Last attempt: ', h('span', { text: r.reason })) : null);
  document.getElementById('take-again-instead').replaceChildren(
    h('strong', { text: 'Was the manifest itself wrong? ' }),
    'If the build is bad or the versions in the manifest do not go together, taking it again fails again. ',
    'Do not take it again: fix the build, upload it as a new distribution set (a new version), make a new manifest ',
    'with the same orders and release it to the channel — a new deployment with a new photograph. ',
    'Quick test: did other systems succeed with this manifest? ' + otherSystemsWord(r));
  document.getElementById('take-again-confirm').textContent = `Take ${r.system} again`;
  const reason = document.getElementById('take-again-reason');
  reason.value = '';
  if (!(await openDialog(dialog, reason))) return;
  const res = await act('POST', `/systemdeployments/${d.id}/runs/${r.id}/retry`, { reason: reason.value.trim() || null },
    run => `${run.system} taken again: ${lower(run.state)} (attempt ${run.attempt}). It is photographed afresh when it starts.`);
  if (res.ok) {
    ui.openTimelines.add(r.id);
    await reload();
  }
}

function otherSystemsWord(r) {
  const runs = (ui.drawerData && ui.drawerData.runs) || [];
  const ok = runs.filter(x => x.id !== r.id && x.state === 'SUCCEEDED').length;
  const back = runs.filter(x => x.id !== r.id && (x.state === 'ROLLED_BACK' || x.state === 'ROLLBACK_FAILED')).length;
  if (ok > 0) return `Here ${ok} did — that points at this one system, not at the manifest.`;
  if (back > 0) return `Here none did and ${back} other(s) rolled back too — the manifest is the suspect.`;
  return 'None has finished yet.';
}

/** Asks why, then rolls {@code r} back by hand; {@code reload} as for take again. */
export async function rollBack(d, r, reload) {
  const dialog = document.getElementById('rollback-dialog');
  document.getElementById('rollback-title').textContent = `Roll ${r.system} back by hand?`;
  document.getElementById('rollback-what').replaceChildren(
    h('p', {}, 'Every device of ', h('strong', { text: r.system }), ' that this deployment updated is given again the set it ran when the system was photographed. ',
      'Devices that ran nothing before are left as they are.'),
    h('p', { text: r.state === 'RUNNING'
      ? 'The system is still under way: what has not been sent yet is not sent.'
      : 'The update worked but the system misbehaves: this takes it back to where it was.' }),
    h('p', { class: 'muted', text: 'Afterwards the system can be taken again from the drawer.' }));
  document.getElementById('rollback-confirm').textContent = `Roll ${r.system} back`;
  const reason = document.getElementById('rollback-reason');
  reason.value = '';
  if (!(await openDialog(dialog, reason))) return;
  await act('POST', `/systemdeployments/${d.id}/runs/${r.id}/rollback`, { reason: reason.value.trim() },
    run => `${run.system}: rollback by hand requested.`);
  await reload();
}

