// /api/stores/{store}/...: the API of one of several served stores (the same table as /api, for that store).
import { storeRouteHandlers } from '@/lib/http/api/match';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = storeRouteHandlers();
