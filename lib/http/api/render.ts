// Previews an instruction template the way ADK injects state.
import { renderState } from '../../data/session-state';
import { getStore } from '../../services';
import { spellJson } from '../../session-service/json-spelling';
import { renderTemplate } from '../../session-service/template';
import { readJsonText } from '../body';
import { plainRoute } from '../handler';
import { json } from '../respond';
import { parseRender } from '../schemas/render';

/** Body `{template, dialect?, state? | session?: {appName, userId, sessionId, asOf?}}` → RenderResult. */
export const renderPreview = plainRoute(async (request) => {
  const body = await readJsonText(request);
  const { template, dialect, source } = parseRender(body.value);
  if ('state' in source) {
    // The body's text keeps what parsing forgets: a float written `2.0` renders `2.0` in the Python dialect.
    const written = spellJson(body.text);
    const state = written?.kind === 'object' ? written.entries.get('state') : undefined;
    return json(renderTemplate(template, source.state, { dialect, written: state }));
  }
  // Only a session source needs the database; the store's JSON text keeps the spelling there.
  const { state, written } = await renderState(await getStore(), source.session, source.asOf);
  return json(renderTemplate(template, state, { dialect, written }));
});
