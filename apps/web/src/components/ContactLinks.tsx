import { telHref } from '@sigaf/contract';
import { Link } from '@mui/material';

/** A phone number as a `tel:` link (Chilean numbers as +56…); as text when it has no number to dial. */
export function TelLink({ number, label, onClick }: { number: string; label?: string; onClick?: () => void }) {
  const href = telHref(number);
  return href ? (
    <Link href={href} onClick={onClick} aria-label={label}>
      {number}
    </Link>
  ) : (
    <>{number}</>
  );
}

/** An e-mail address as a `mailto:` link. */
export function EmailLink({ address }: { address: string }) {
  return <Link href={`mailto:${address}`}>{address}</Link>;
}
