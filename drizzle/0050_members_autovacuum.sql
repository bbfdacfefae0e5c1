-- The members list counts and pages with index-only scans (decision 0064), which need the visibility map fresh. Every
-- visit moves organisation_users.last_visit_at (indexed, so never a HOT update) and clears its page's visible bit; at
-- autovacuum's default (20% of rows changed) a 100,000-member organisation waits days of door visits between vacuums,
-- and the list was measured at about half as much database time again meanwhile. Vacuum it after 1% (and 1,000 rows).
ALTER TABLE "organisation_users" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000, autovacuum_analyze_scale_factor = 0.02);
