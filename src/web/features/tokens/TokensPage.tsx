import { Coins, Package } from 'lucide-react';
import { Notice } from '../../components/Notice';
import { PageHeader } from '../../components/PageHeader';
import { PlaceholderPanel } from '../../components/PlaceholderPanel';
import { useDocumentTitle } from '../../lib/use-document-title';

export function TokensPage() {
  useDocumentTitle('Tokens');
  return (
    <div className="pp-page">
      <PageHeader
        icon={Coins}
        title="Tokens"
        summary="Top up your balance with a token package. Tokens never expire and unused tokens roll over."
      />
      <Notice>Token packages and checkout arrive in an upcoming release.</Notice>
      <PlaceholderPanel
        icon={Package}
        title="Token packages"
        text="The available packages and their prices will be listed here."
        variant="plain"
        className="pp-panel--wide"
      />
    </div>
  );
}
