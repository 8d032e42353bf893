package dev.cpuprofiler.internal.cpu;

/** The kernel's CPU list format ({@code Cpus_allowed_list} in {@code /proc/self/status}): {@code 0-1}, {@code 0,2-5}. */
final class CpusAllowedList {

    private CpusAllowedList() {
    }

    /**
     * How many CPUs the list names.
     *
     * @throws IllegalArgumentException when it is not a CPU list or names none
     */
    public static int count(String list) {
        String trimmed = list.trim();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("empty CPU list");
        }
        int count = 0;
        for (String part : trimmed.split(",")) {
            try {
                int dash = part.indexOf('-');
                if (dash < 0) {
                    Integer.parseInt(part.trim());
                    count++;
                } else {
                    int from = Integer.parseInt(part.substring(0, dash).trim());
                    int to = Integer.parseInt(part.substring(dash + 1).trim());
                    if (to < from) {
                        throw new IllegalArgumentException("descending CPU range '" + part + "' in '" + list + "'");
                    }
                    count += to - from + 1;
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a CPU list: '" + list + "'", e);
            }
        }
        return count;
    }
}
