import { render } from "preact";
import { App } from "./app.js";
import { OidcSignIn, type Session } from "./auth.js";
import { loadConfig } from "./config.js";
import "./styles.css";

function SignInScreen({ auth, issuer }: { auth: OidcSignIn; issuer: string }) {
  return (
    <main class="sign-in">
      <h1>Switchboard</h1>
      <p>Sign in to talk to the platform-engineering assistant.</p>
      <button type="button" class="primary" onClick={() => void auth.signIn(location.pathname)}>
        Sign in
      </button>
      <p class="muted">with {new URL(issuer).host}</p>
    </main>
  );
}

function Failure({ message }: { message: string }) {
  return (
    <main class="sign-in">
      <h1>Switchboard</h1>
      <p class="error" role="alert">
        {message}
      </p>
    </main>
  );
}

async function boot(root: HTMLElement): Promise<void> {
  try {
    const { signIn, knowledge = false } = await loadConfig();
    let auth: OidcSignIn | undefined;
    let session: Session | undefined;
    if (signIn.mode === "oidc") {
      auth = new OidcSignIn(signIn);
      const returnTo = await auth.finishIfReturning();
      if (returnTo) history.replaceState(null, "", returnTo);
      session = await auth.session();
      if (!session) {
        render(<SignInScreen auth={auth} issuer={signIn.issuer} />, root);
        return;
      }
    }
    render(<App knowledge={knowledge} {...(auth ? { auth } : {})} {...(session ? { session } : {})} />, root);
  } catch (error) {
    render(<Failure message={`The chat could not start: ${(error as Error).message}`} />, root);
  }
}

const root = document.getElementById("app");
if (root) void boot(root);
