import { LegalPage } from '../components/LegalPage';

const SECTIONS = [
  { id: 'account', paragraphs: 2 },
  { id: 'earning', paragraphs: 2 },
  { id: 'redeeming', paragraphs: 2 },
  { id: 'plans', paragraphs: 1 },
  { id: 'devices', paragraphs: 1 },
  { id: 'fairUse', paragraphs: 1 },
  { id: 'liability', paragraphs: 1 },
  { id: 'changes', paragraphs: 1 },
  { id: 'termination', paragraphs: 1 },
] as const;

export default function TermsPage() {
  return <LegalPage base="legal.terms" sections={SECTIONS} />;
}
