package dev.cpuprofiler;

import java.util.function.IntBinaryOperator;

/** A stable merge sort of int indices by a comparator, without boxing them into Integers. */
final class IndexSort {

    private IndexSort() {
    }

    static void sort(int[] a, IntBinaryOperator comparator) {
        if (a.length < 2) {
            return;
        }
        int[] buffer = a.clone();
        mergeSort(buffer, a, 0, a.length, comparator);
    }

    /** Sorts {@code src[from, to)} into {@code dst[from, to)}; both start with the same content. */
    private static void mergeSort(int[] src, int[] dst, int from, int to, IntBinaryOperator comparator) {
        if (to - from < 16) {
            for (int i = from + 1; i < to; i++) {
                int v = dst[i];
                int j = i - 1;
                while (j >= from && comparator.applyAsInt(dst[j], v) > 0) {
                    dst[j + 1] = dst[j];
                    j--;
                }
                dst[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(dst, src, from, mid, comparator);
        mergeSort(dst, src, mid, to, comparator);
        if (comparator.applyAsInt(src[mid - 1], src[mid]) <= 0) {
            System.arraycopy(src, from, dst, from, to - from);
            return;
        }
        for (int i = from, p = from, q = mid; i < to; i++) {
            if (q >= to || p < mid && comparator.applyAsInt(src[p], src[q]) <= 0) {
                dst[i] = src[p++];
            } else {
                dst[i] = src[q++];
            }
        }
    }
}
