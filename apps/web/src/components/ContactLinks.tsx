import { telLinks } from '@sigaf/contract';
import { Link } from '@mui/material';
import { Fragment } from 'react';

/**
 * A phone field as `tel:` links (Chilean numbers as +56…), one per number when it holds several
 * ("912345678 / 223456789"); as text when it has no number to dial.
 */
export function TelLink({
  number,
  label,
  onClick,
}: {
  number: string;
  label?: (number: string) => string;
  onClick?: () => void;
}) {
  const links = telLinks(number);
  if (!links.length) return <>{number}</>;
  return (
    <>
      {links.map((l, i) => (
        <Fragment key={`${i}-${l.href}`}>
          {i > 0 && ' / '}
          <Link href={l.href} onClick={onClick} aria-label={label?.(l.number)}>
            {l.number}
          </Link>
        </Fragment>
      ))}
    </>
  );
}

/** An e-mail address as a `mailto:` link. */
export function EmailLink({ address }: { address: string }) {
  return <Link href={`mailto:${address}`}>{address}</Link>;
}
