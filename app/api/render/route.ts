// POST /api/render — preview an instruction template the way ADK injects state.
import { readJson } from '@/lib/http/body';
import { plainRoute } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { json } from '@/lib/http/respond';
import { parseRender } from '@/lib/http/schemas/render';
import { renderState } from '@/lib/data/session-state';
import { renderTemplate } from '@/lib/session-service/template';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Body `{template, dialect?, state? | session?: {appName, userId, sessionId, asOf?}}` → RenderResult. */
export const POST = plainRoute(async (request) => {
  const { template, dialect, source } = parseRender(await readJson(request));
  // Only a session source needs the database; rendering given state works without one.
  const state = 'state' in source ? source.state : await renderState(await getStore(), source.session, source.asOf);
  return json(renderTemplate(template, state, { dialect }));
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
