// Previews an instruction template the way ADK injects state.
import { renderState } from '../../data/session-state';
import { getStore } from '../../services';
import { renderTemplate } from '../../session-service/template';
import { readJson } from '../body';
import { plainRoute } from '../handler';
import { json } from '../respond';
import { parseRender } from '../schemas/render';

/** Body `{template, dialect?, state? | session?: {appName, userId, sessionId, asOf?}}` → RenderResult. */
export const renderPreview = plainRoute(async (request) => {
  const { template, dialect, source } = parseRender(await readJson(request));
  // Only a session source needs the database; rendering given state works without one.
  const state = 'state' in source ? source.state : await renderState(await getStore(), source.session, source.asOf);
  return json(renderTemplate(template, state, { dialect }));
});
