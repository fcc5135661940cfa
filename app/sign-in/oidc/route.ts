// GET /sign-in/oidc?next=... — single sign-on starts here (lib/auth/oidc.ts).
import { startOidcSignIn } from '@/lib/auth/oidc';
import { authConfig } from '@/lib/config';

export const dynamic = 'force-dynamic';

export const GET = (request: Request) => startOidcSignIn(request, authConfig());
