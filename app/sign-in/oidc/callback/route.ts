// GET /sign-in/oidc/callback — where the OpenID provider sends people back (lib/auth/oidc.ts).
import { finishOidcSignIn } from '@/lib/auth/oidc';
import { authConfig } from '@/lib/config';
import { getAccountStore } from '@/lib/services';

export const dynamic = 'force-dynamic';

export const GET = (request: Request) => finishOidcSignIn(request, authConfig(), getAccountStore);
