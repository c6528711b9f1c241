import { Settings, UserRound } from 'lucide-react';
import { Notice } from '../../components/Notice';
import { PageHeader } from '../../components/PageHeader';
import { PlaceholderPanel } from '../../components/PlaceholderPanel';
import { useDocumentTitle } from '../../lib/use-document-title';

export function UserSettingsPage() {
  useDocumentTitle('User Settings');
  return (
    <div className="pp-page">
      <PageHeader
        icon={Settings}
        title="User Settings"
        summary="Your account’s email address, token balance and email verification."
      />
      <Notice>Account settings arrive with sign-in in an upcoming release.</Notice>
      <PlaceholderPanel
        icon={UserRound}
        title="Account"
        text="Once you are signed in, your email, balance and verification status appear here."
        variant="plain"
        className="pp-panel--wide"
      />
    </div>
  );
}
