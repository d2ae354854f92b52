import { useEffect, type ReactNode } from 'react';
import { useVenueConfig } from '../lib/venue-config';

type Props = {
  /** The screen's one h1; also the document title. */
  children: string;
  /** For screens whose body is not built yet or whose design has no visible heading. */
  visuallyHidden?: boolean;
  className?: string;
  /** Shown after the heading text, e.g. a badge. */
  after?: ReactNode;
};

export function PageTitle({ children, visuallyHidden, className, after }: Props) {
  const { company_name } = useVenueConfig();
  useEffect(() => {
    document.title = `${children} | ${company_name}`;
  }, [children, company_name]);
  return (
    <h1 className={visuallyHidden ? 'visually-hidden' : (className ?? 'h2 mb-4')}>
      {children}
      {after}
    </h1>
  );
}
