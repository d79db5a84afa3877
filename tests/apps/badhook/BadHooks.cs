// Startup hooks with one mistake each; the runtime would end the target process on any of them.
#if VARIANT_INSTANCE
internal class StartupHook
{
    public void Initialize() { }   // not static
}
#elif VARIANT_PARAMS
internal static class StartupHook
{
    public static void Initialize(int level) { _ = level; }   // takes a parameter
}
#elif VARIANT_RETURNS
internal static class StartupHook
{
    public static int Initialize() => 1;   // returns a value
}
#elif VARIANT_GENERIC
internal static class StartupHook
{
    public static void Initialize<T>() { }   // generic
}
#elif VARIANT_NAMESPACED
namespace Hooks
{
    internal static class StartupHook   // inside a namespace
    {
        public static void Initialize() { }
    }
}
#elif VARIANT_NESTED
internal static class Outer
{
    internal static class StartupHook   // nested in a class
    {
        public static void Initialize() { }
    }
}
#endif
