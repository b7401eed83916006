import { LegalPage } from '../components/LegalPage';

const SECTIONS = [
  { id: 'collect', paragraphs: 3 },
  { id: 'use', paragraphs: 1 },
  { id: 'sharing', paragraphs: 2 },
  { id: 'cookies', paragraphs: 1 },
  { id: 'retention', paragraphs: 2 },
  { id: 'rights', paragraphs: 2 },
  { id: 'security', paragraphs: 1 },
  { id: 'changes', paragraphs: 1 },
  { id: 'contact', paragraphs: 1 },
] as const;

export default function PrivacyPage() {
  return <LegalPage base="legal.privacy" sections={SECTIONS} />;
}
