// DELETE /api/apps/{app} — clears an app a test kit marked as its own (reason required, dry run, operations log): test suites' clean-up.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app');
