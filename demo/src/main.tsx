import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'toolgate/styles.css';
import './demo.css';
import { App } from './app';
import { readConfig } from './config';
import { createDiagnosticsLog } from './diagnostics';
import { openSession } from './session';

const config = readConfig(window.location);
if (config.theme !== 'system') document.documentElement.dataset.theme = config.theme;
const diagnostics = createDiagnosticsLog();
// Sessions are made outside React (one per "New session"), so StrictMode never opens two.
const session = openSession(config, diagnostics);

const root = document.getElementById('root');
if (!root) throw new Error('the page has no #root element');
createRoot(root).render(
  <StrictMode>
    <App config={config} diagnostics={diagnostics} initialSession={session} />
  </StrictMode>,
);
