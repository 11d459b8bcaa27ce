package io.qawk.orchestrator.deployment.engine;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class PassLoopTest {

    private PassLoop loop;

    @AfterEach
    void stop() throws InterruptedException {
        if (loop != null) {
            loop.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void aWakeBringsThePassForwardFromALongIdleWait() {
        AtomicInteger passes = new AtomicInteger();
        loop = new PassLoop(() -> {
            passes.incrementAndGet();
            return false;
        }, Duration.ofMillis(50), Duration.ofHours(1), Duration.ZERO);
        loop.start("test-loop");
        await().atMost(Duration.ofSeconds(5)).until(() -> passes.get() == 1);

        loop.wake();
        await().atMost(Duration.ofSeconds(5)).until(() -> passes.get() == 2);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> passes.get() == 2);
    }

    @Test
    void passesComeEveryBusyIntervalWhileDueAndStopWhenNothingIsDue() {
        AtomicInteger passes = new AtomicInteger();
        AtomicBoolean due = new AtomicBoolean(true);
        loop = new PassLoop(() -> {
            passes.incrementAndGet();
            return due.get();
        }, Duration.ofMillis(20), Duration.ofHours(1), Duration.ZERO);
        loop.start("test-loop");
        await().atMost(Duration.ofSeconds(5)).until(() -> passes.get() >= 10);

        due.set(false);
        int settled = passes.get() + 1; // the pass under way may still say "due" once
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> passes.get() <= settled);
    }

    @Test
    void aWakeDuringAPassIsNotLost() throws InterruptedException {
        CountDownLatch inFirstPass = new CountDownLatch(1);
        CountDownLatch woken = new CountDownLatch(1);
        AtomicInteger passes = new AtomicInteger();
        loop = new PassLoop(() -> {
            if (passes.incrementAndGet() == 1) {
                inFirstPass.countDown();
                try {
                    woken.await(5, TimeUnit.SECONDS); // the waker commits while this pass reads
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return false;
        }, Duration.ofMillis(50), Duration.ofHours(1), Duration.ZERO);
        loop.start("test-loop");
        assertThat(inFirstPass.await(5, TimeUnit.SECONDS)).isTrue();
        loop.wake();
        woken.countDown();

        await().atMost(Duration.ofSeconds(5)).until(() -> passes.get() == 2);
    }

    @Test
    void nothingPassesBeforeTheInitialDelayNotEvenWhenWoken() {
        AtomicInteger passes = new AtomicInteger();
        loop = new PassLoop(() -> {
            passes.incrementAndGet();
            return true;
        }, Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofHours(1));
        loop.start("test-loop");
        loop.wake();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> passes.get() == 0);
    }

    @Test
    void aFailingPassDoesNotEndTheLoop() {
        AtomicInteger passes = new AtomicInteger();
        loop = new PassLoop(() -> {
            if (passes.incrementAndGet() == 1) {
                throw new IllegalStateException("the database went away");
            }
            return false;
        }, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ZERO);
        loop.start("test-loop");
        await().atMost(Duration.ofSeconds(5)).until(() -> passes.get() >= 3);
        assertThat(loop.running()).isTrue();
    }

    /**
     * Something in a pass interrupts the loop's thread (a fault-tolerance timeout, a library): the loop goes on. It
     * used to end without a word at its next wait, and every deployment stood still with the service answering.
     */
    @Test
    void anInterruptDuringAPassDoesNotEndTheLoop() {
        AtomicInteger passes = new AtomicInteger();
        AtomicBoolean interruptedInPass = new AtomicBoolean();
        loop = new PassLoop(() -> {
            if (passes.incrementAndGet() == 1) {
                Thread.currentThread().interrupt();
            } else if (Thread.currentThread().isInterrupted()) {
                interruptedInPass.set(true);
            }
            return true;
        }, Duration.ofMillis(10), Duration.ofHours(1), Duration.ZERO);
        loop.start("test-loop");
        await().atMost(Duration.ofSeconds(5)).until(() -> passes.get() >= 5);
        assertThat(loop.running()).isTrue();
        assertThat(interruptedInPass).as("a later pass starts with the interrupt cleared").isFalse();
    }

    @Test
    void aPassUnderWayIsTimedAndTheLastEndRemembered() throws InterruptedException {
        CountDownLatch inSecondPass = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger passes = new AtomicInteger();
        loop = new PassLoop(() -> {
            if (passes.incrementAndGet() == 2) {
                inSecondPass.countDown();
                try {
                    release.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return true;
        }, Duration.ofMillis(10), Duration.ofHours(1), Duration.ZERO);
        assertThat(loop.passUnderWayFor()).isEmpty();
        assertThat(loop.lastPassEndedAgo()).isEmpty();
        loop.start("test-loop");
        assertThat(inSecondPass.await(5, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> loop.passUnderWayFor()
                .filter(d -> d.compareTo(Duration.ofMillis(200)) >= 0).isPresent());
        assertThat(loop.lastPassEndedAgo()).hasValueSatisfying(ago -> assertThat(ago).isGreaterThanOrEqualTo(
                Duration.ofMillis(200)));
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> passes.get() >= 3);
        await().atMost(Duration.ofSeconds(5)).until(() -> loop.lastPassEndedAgo()
                .filter(ago -> ago.compareTo(Duration.ofSeconds(1)) < 0).isPresent());
    }

    @Test
    void stopEndsTheThread() throws InterruptedException {
        loop = new PassLoop(() -> false, Duration.ofMillis(10), Duration.ofHours(1), Duration.ZERO);
        loop.start("test-loop");
        loop.stop(Duration.ofSeconds(5));
        assertThat(loop.running()).isFalse();
    }
}
