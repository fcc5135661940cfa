import { LOCAL_OPERATOR } from './principal';

export { LOCAL_OPERATOR };

/**
 * Who is making a change, for the audit trail. In local mode (the embedded
 * default, bound to 127.0.0.1) there is one operator and no sign-in.
 */
export async function currentActor(): Promise<string> {
  return LOCAL_OPERATOR;
}
