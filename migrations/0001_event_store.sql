-- placeholder replaced by the event store work
SELECT 1;
