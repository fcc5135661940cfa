// POST /api/apps/{app}/users/{user}/import — sessions into this user, whatever user the file names; a preview unless ?dryRun=false.
import { routeHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/api/apps/:app/users/:user/import');
