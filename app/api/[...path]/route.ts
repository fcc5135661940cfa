// Any /api path without a route: FastAPI's JSON 404 (as ADK's server answers), not Next's HTML page.
import { detailResponse } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

const notFound = async () => detailResponse(404, 'Not Found');

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
