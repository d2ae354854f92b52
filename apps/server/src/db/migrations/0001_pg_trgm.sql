-- Trigram indexes make the staff user search (ILIKE %term%) fast at any size.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
