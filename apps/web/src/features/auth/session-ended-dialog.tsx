import type { Session } from '@sv/shared';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { LoginForm } from './login-form';

/**
 * Shown over the page when the session ends while the user works (it expired, or was revoked). The
 * page, and any dialog open on it, stays as it was underneath; requests that met the ended session
 * wait and run once the user has signed in again.
 */
export function SessionEndedDialog({
  previous,
  onSignedIn,
  onLeave,
}: {
  previous: Session;
  onSignedIn: (session: Session) => void;
  /** Gives up: back to the sign-in page. */
  onLeave: () => void;
}) {
  return (
    <Dialog
      open
      dismissible={false}
      onClose={onLeave}
      size="sm"
      title="Your session has ended"
      description={`Sign in again to go on where you were. What you entered on this page is kept.`}
      footer={
        <Button variant="secondary" onClick={onLeave}>
          Go to the sign-in page
        </Button>
      }
    >
      <LoginForm
        previous={previous}
        initial={{ username: previous.user.name, project: previous.project.name }}
        onSignedIn={onSignedIn}
        submitLabel="Sign in again"
      />
    </Dialog>
  );
}
