-- wrk: GET one evening after another (every tablet of a hall reloading its table), each
-- wrk thread starting at its own evening. Arguments: the path before the id
-- ("/api/v1/evenings/"), the first evening id and how many evenings there are.
local threads = 0

function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

function init(args)
  before = args[1]
  first, count = tonumber(args[2]), tonumber(args[3])
  n = tid * 7919
end

function request()
  n = n + 1
  return wrk.format("GET", before .. (first + (n % count)))
end
