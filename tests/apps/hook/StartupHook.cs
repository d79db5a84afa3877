// A startup hook that proves where and when it ran.
//
// The runtime calls StartupHook.Initialize() (a class in the global namespace) when the hook is
// applied. It appends to the file named by $CLRA_HOOK_OUT:
//   begin pid=<Environment.ProcessId> call=<n> thread=<managed thread id> name=<thread name>
//   end pid=<Environment.ProcessId> call=<n>
// sleeping $CLRA_HOOK_DELAY_MS milliseconds in between, so a test can tell whether the runtime
// waits for the hook before it answers. It also sets CLRA_HOOK_RAN=<pid>:<n> in the process's
// environment, which the sample app's "env" command prints. n counts calls in this process.
// With $CLRA_HOOK_THROW set it throws instead, after the begin line.
using System;
using System.IO;
using System.Threading;

internal static class StartupHook
{
    private static int s_calls;

    public static void Initialize()
    {
        int call = Interlocked.Increment(ref s_calls);
        int pid = Environment.ProcessId;
        string? output = Environment.GetEnvironmentVariable("CLRA_HOOK_OUT");
        int.TryParse(Environment.GetEnvironmentVariable("CLRA_HOOK_DELAY_MS"), out int delayMs);
        Thread me = Thread.CurrentThread;
        if (output != null)
            File.AppendAllText(output,
                $"begin pid={pid} call={call} thread={me.ManagedThreadId} name={me.Name ?? "-"}\n");
        if (Environment.GetEnvironmentVariable("CLRA_HOOK_THROW") != null)
            throw new InvalidOperationException("the clrattach test hook was asked to throw");
        if (delayMs > 0)
            Thread.Sleep(delayMs);
        Environment.SetEnvironmentVariable("CLRA_HOOK_RAN", $"{pid}:{call}");
        if (output != null)
            File.AppendAllText(output, $"end pid={pid} call={call}\n");
    }
}
